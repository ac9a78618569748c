import { Module } from "@medusajs/framework/utils"
import SalesTaxModuleService from "./service"
import registerSalesTaxRuntime from "./loaders/runtime"
import { SALES_TAX_MODULE } from "../../constants"

export { SALES_TAX_MODULE, SalesTaxModuleService }
export type { TicTargetType } from "../../service/tics/product-tics"

export default Module(SALES_TAX_MODULE, { service: SalesTaxModuleService, loaders: [registerSalesTaxRuntime] })
