import { handle } from "../../../../../http/answers"
import { postPing } from "../../../../../setup/routes"

/** POST { connection_id }: the service's ping on that connection ("Test connection"). */
export const POST = handle(postPing)
