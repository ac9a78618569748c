import { handle } from "../../../../../http/answers"
import { withdraw } from "../../../../../certificates/shopper"

/** DELETE: the logged-in customer withdraws one of their own certificates. */
export const DELETE = handle(withdraw)
