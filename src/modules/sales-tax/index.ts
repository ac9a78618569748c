import { Module } from "@medusajs/framework/utils"
import SalesTaxModuleService from "./service"
import registerSalesTaxRuntime from "./loaders/runtime"
import { SALES_TAX_MODULE } from "../../constants"

export { SALES_TAX_MODULE, SalesTaxModuleService }
export type { TicTargetType } from "../../service/tics/product-tics"

// the loader registers the plugin's runtime in the module's container (src/runtime.ts)
export default Module(SALES_TAX_MODULE, { service: SalesTaxModuleService, loaders: [registerSalesTaxRuntime] })
