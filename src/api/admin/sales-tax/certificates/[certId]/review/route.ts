import { handle } from "../../../../../../http/answers"
import { review } from "../../../../../../certificates/admin"

/** POST [?connection_id=] { decision: "approve" } or { decision: "reject", reason }: staff review a certificate. */
export const POST = handle(review)
