/** GET: the connections with their sales channels (keys never returned). */
export { getConnections as GET } from "../../../../setup/routes"
