import { Module } from "@medusajs/framework/utils"
import SalesTaxModuleService from "./service"

export const SALES_TAX_MODULE = "salesTax"
export { SalesTaxModuleService }
export type { TicTargetType } from "./service"

export default Module(SALES_TAX_MODULE, { service: SalesTaxModuleService })
