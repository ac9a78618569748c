import { handle } from "../../../../http/answers"
import { listMine, submit } from "../../../../certificates/shopper"

export const GET = handle(listMine)
export const POST = handle(submit)
