import { handle } from "../../../../../http/answers"
import { postPing } from "../../../../../setup/routes"

export const POST = handle(postPing)
