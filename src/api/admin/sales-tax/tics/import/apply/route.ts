import { handle } from "../../../../../../http/answers"
import { applyTicImport, ticImportProgress } from "../../../../../../tics/routes"

/** POST { csv, mode, preview_hash? }: applies the file in the background; GET: the import's progress. */
export const POST = handle(applyTicImport)
export const GET = ticImportProgress
