import { handle } from "../../../../http/answers"
import { getSettings } from "../../../../setup/routes"

/** GET: connection health, options in force (key redacted), TIC coverage, filing failures and pause. */
export const GET = handle(getSettings)
