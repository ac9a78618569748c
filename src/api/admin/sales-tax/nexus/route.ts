import { handle } from "../../../../http/answers"
import { getNexus } from "../../../../nexus/routes"

export const GET = handle(getNexus)
