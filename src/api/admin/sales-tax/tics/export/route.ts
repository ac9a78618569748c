import { handle } from "../../../../../http/answers"
import { exportTics } from "../../../../../tics/routes"

/** GET: every product and its TIC as CSV. */
export const GET = handle(exportTics)
