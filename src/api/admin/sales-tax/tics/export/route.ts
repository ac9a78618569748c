export { exportTics as GET } from "../../../../../tics/routes"
