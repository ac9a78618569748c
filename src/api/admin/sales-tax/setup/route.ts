export { getSetup as GET } from "../../../../setup/routes"
