// Registers the plugin's runtime (src/runtime.ts) in the module's container; the service exposes it as `salesTax.runtime`.
import { asValue } from "@medusajs/framework/awilix"
import type { LoaderOptions } from "@medusajs/framework/types"
import { SALES_TAX_RUNTIME, salesTaxRuntime } from "../../../runtime"

export default async function registerSalesTaxRuntime({ container }: LoaderOptions): Promise<void> {
  container.register(SALES_TAX_RUNTIME, asValue(salesTaxRuntime()))
}
