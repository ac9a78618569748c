export { review as POST } from "../../../../../../certificates/admin"
