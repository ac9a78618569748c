import { handle } from "../../../../../../http/answers"
import { applyUnclassified } from "../../../../../../tics/routes"

export const POST = handle(applyUnclassified)
