import { handle } from "../../../../../http/answers"
import { exportTics } from "../../../../../tics/routes"

export const GET = handle(exportTics)
