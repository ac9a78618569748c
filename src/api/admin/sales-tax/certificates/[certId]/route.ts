export { getOne as GET, disable as DELETE } from "../../../../../certificates/admin"
