import { handle } from "../../../../http/answers"
import { getSetup } from "../../../../setup/routes"

export const GET = handle(getSetup)
