export { listForCustomer as GET, createForCustomer as POST } from "../../../../../../certificates/admin"
