import { handle } from "../../../../../http/answers"
import { previewTicImport } from "../../../../../tics/routes"

export const POST = handle(previewTicImport)
