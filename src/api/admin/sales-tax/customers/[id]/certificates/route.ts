import { handle } from "../../../../../../http/answers"
import { createForCustomer, listForCustomer } from "../../../../../../certificates/admin"

/** GET [?connection_id=]: the customer's certificates on that connection; POST: creates one for them. */
export const GET = handle(listForCustomer)
export const POST = handle(createForCustomer)
