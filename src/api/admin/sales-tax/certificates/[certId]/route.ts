import { handle } from "../../../../../http/answers"
import { disable, getOne } from "../../../../../certificates/admin"

/** GET [?connection_id=]: one certificate at the service; DELETE: disables it there (kept). */
export const GET = handle(getOne)
export const DELETE = handle(disable)
