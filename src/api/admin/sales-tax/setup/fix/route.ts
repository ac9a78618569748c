import { handle } from "../../../../../http/answers"
import { postSetupFix } from "../../../../../setup/routes"

export const POST = handle(postSetupFix)
