import { handle } from "../../../../http/answers"
import { getSettings } from "../../../../setup/routes"

export const GET = handle(getSettings)
