import { handle } from "../../../../../../http/answers"
import { applyTicImport, ticImportProgress } from "../../../../../../tics/routes"

export const POST = handle(applyTicImport)
export const GET = ticImportProgress
