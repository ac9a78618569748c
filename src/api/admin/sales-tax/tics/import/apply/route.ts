export { applyTicImport as POST, ticImportProgress as GET } from "../../../../../../tics/routes"
