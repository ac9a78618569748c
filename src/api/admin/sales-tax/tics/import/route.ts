import { handle } from "../../../../../http/answers"
import { previewTicImport } from "../../../../../tics/routes"

/** POST { csv }: the dry run of a bulk TIC import. */
export const POST = handle(previewTicImport)
