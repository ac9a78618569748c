export { postPing as POST } from "../../../../../setup/routes"
