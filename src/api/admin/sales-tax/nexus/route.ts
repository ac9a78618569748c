import { handle } from "../../../../http/answers"
import { getNexus } from "../../../../nexus/routes"

/** GET [?date=YYYY-MM-DD]: economic nexus exposure per state. */
export const GET = handle(getNexus)
