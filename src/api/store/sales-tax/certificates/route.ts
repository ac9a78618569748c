export { listMine as GET, submit as POST } from "../../../../certificates/shopper"
