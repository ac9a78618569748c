import { handle } from "../../../../../../http/answers"
import { review } from "../../../../../../certificates/admin"

export const POST = handle(review)
