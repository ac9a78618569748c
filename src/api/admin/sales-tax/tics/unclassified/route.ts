import { handle } from "../../../../../http/answers"
import { getUnclassified } from "../../../../../tics/routes"

export const GET = handle(getUnclassified)
