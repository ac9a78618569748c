import { handle } from "../../../../../http/answers"
import { disable, getOne } from "../../../../../certificates/admin"

export const GET = handle(getOne)
export const DELETE = handle(disable)
