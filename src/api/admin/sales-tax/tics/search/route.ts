export { searchTics as POST } from "../../../../../tics/routes"
