import { handle } from "../../../../../http/answers"
import { postRegistration } from "../../../../../nexus/routes"

/** POST { state, registered }: the merchant marks a state. */
export const POST = handle(postRegistration)
