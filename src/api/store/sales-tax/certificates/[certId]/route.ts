export { withdraw as DELETE } from "../../../../../certificates/shopper"
