import { handle } from "../../../../../../http/answers"
import { applyUnclassified } from "../../../../../../tics/routes"

/** POST { items } | { min_confidence }: sets the picked or accepted suggestions. */
export const POST = handle(applyUnclassified)
