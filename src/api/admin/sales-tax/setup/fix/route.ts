import { handle } from "../../../../../http/answers"
import { postSetupFix } from "../../../../../setup/routes"

/** POST { fix }: applies one fix of the checklist and answers the checklist after it. */
export const POST = handle(postSetupFix)
