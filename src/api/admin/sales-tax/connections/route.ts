import { handle } from "../../../../http/answers"
import { getConnections } from "../../../../setup/routes"

/** GET: the connections with their sales channels (keys never returned). */
export const GET = handle(getConnections)
