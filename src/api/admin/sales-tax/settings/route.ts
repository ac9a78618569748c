export { getSettings as GET } from "../../../../setup/routes"
