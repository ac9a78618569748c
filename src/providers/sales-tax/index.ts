import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import SalesTaxProviderService from "../../checkout/quote/provider"

export { SalesTaxProviderService }
export * from "../../constants"
export { resolveTic, categoryTics, type TicSource } from "../../service/tics/tic-resolution"
export { backSolveRate, float32Shortest } from "../../checkout/inclusive/back-solve"
export { buildServiceCart, cartHash, taxableDestination, serviceCustomerId } from "../../service/cart/build-service-cart"
export { CartSnapshot } from "../../service/cart/context"
export { invalidateCustomerCertificates } from "../../checkout/exemptions/exemptions"

export default ModuleProvider(Modules.TAX, { services: [SalesTaxProviderService] })
