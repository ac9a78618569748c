export { getNexus as GET } from "../../../../nexus/routes"
