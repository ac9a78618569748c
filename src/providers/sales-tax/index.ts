import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import SalesTaxProviderService from "./service"

export { SalesTaxProviderService }
export * from "../../core/constants"
export { resolveTic, categoryTics, type TicSource } from "../../core/tic-resolution"
export { backSolveRate, float32Shortest } from "./back-solve"
export { buildServiceCart, cartHash, taxableDestination, serviceCustomerId } from "../../core/build-service-cart"
export { CartSnapshot } from "../../core/context"
export { invalidateCustomerCertificates } from "../../core/exemptions"

export default ModuleProvider(Modules.TAX, { services: [SalesTaxProviderService] })
