import { Module } from "@medusajs/framework/utils"
import SalesTaxFilingModuleService from "./service"
import { SALES_TAX_FILING_MODULE } from "./types"

export * from "./types"
export { SalesTaxFilingModuleService }

export default Module(SALES_TAX_FILING_MODULE, {
  service: SalesTaxFilingModuleService,
})
