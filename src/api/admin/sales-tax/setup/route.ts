import { handle } from "../../../../http/answers"
import { getSetup } from "../../../../setup/routes"

/** GET: the setup checklist. */
export const GET = handle(getSetup)
