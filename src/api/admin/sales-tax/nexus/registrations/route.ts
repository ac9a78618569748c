import { handle } from "../../../../../http/answers"
import { postRegistration } from "../../../../../nexus/routes"

export const POST = handle(postRegistration)
