import { handle } from "../../../../http/answers"
import { listMine, submit } from "../../../../certificates/shopper"

/** GET: the customer's own certificates with their status; POST: submits one (capped, reviewed by staff). */
export const GET = handle(listMine)
export const POST = handle(submit)
