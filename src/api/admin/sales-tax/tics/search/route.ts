import { handle } from "../../../../../http/answers"
import { searchTics } from "../../../../../tics/routes"

/** POST { query, limit?, cursor? }: natural-language TIC search at the service. */
export const POST = handle(searchTics)
