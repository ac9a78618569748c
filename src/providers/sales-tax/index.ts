import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import SalesTaxProviderService from "./service"

export { SalesTaxProviderService }
export * from "./constants"
export { resolveTic, categoryTics, type TicSource } from "./tic-resolution"
export { backSolveRate, float32Shortest } from "./back-solve"
export { buildServiceCart, cartHash, taxableDestination, serviceCustomerId } from "./build-service-cart"
export { CartSnapshot } from "./context"
export { invalidateCustomerCertificates } from "./exemptions"

export default ModuleProvider(Modules.TAX, { services: [SalesTaxProviderService] })
