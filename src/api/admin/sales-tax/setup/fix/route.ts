export { postSetupFix as POST } from "../../../../../setup/routes"
