import { handle } from "../../../../../http/answers"
import { withdraw } from "../../../../../certificates/shopper"

export const DELETE = handle(withdraw)
