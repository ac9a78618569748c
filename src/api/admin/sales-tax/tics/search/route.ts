import { handle } from "../../../../../http/answers"
import { searchTics } from "../../../../../tics/routes"

export const POST = handle(searchTics)
