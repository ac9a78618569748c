import { handle } from "../../../../../../http/answers"
import { createForCustomer, listForCustomer } from "../../../../../../certificates/admin"

export const GET = handle(listForCustomer)
export const POST = handle(createForCustomer)
