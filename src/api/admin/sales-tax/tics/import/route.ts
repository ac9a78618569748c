export { previewTicImport as POST } from "../../../../../tics/routes"
