import { handle } from "../../../../../http/answers"
import { getUnclassified } from "../../../../../tics/routes"

/** GET ?limit=&offset=: products on the default TIC, with suggested TICs. */
export const GET = handle(getUnclassified)
