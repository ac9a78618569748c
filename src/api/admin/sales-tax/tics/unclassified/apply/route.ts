export { applyUnclassified as POST } from "../../../../../../tics/routes"
