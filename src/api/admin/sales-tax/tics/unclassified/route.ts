export { getUnclassified as GET } from "../../../../../tics/routes"
