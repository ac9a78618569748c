export { postRegistration as POST } from "../../../../../nexus/routes"
