/**
 * The salesTax module's loader: registers the plugin's runtime (src/runtime.ts) in the module's
 * container under `salesTaxRuntime`, as a value. Module loaders are where Medusa documents that
 * a module registers its resources; the module's service takes the runtime from its
 * dependencies and exposes it to Medusa's container as `salesTax.runtime` (runtimeOf).
 */
import { asValue } from "@medusajs/framework/awilix"
import type { LoaderOptions } from "@medusajs/framework/types"
import { SALES_TAX_RUNTIME, salesTaxRuntime } from "../../../runtime"

export default async function registerSalesTaxRuntime({ container }: LoaderOptions): Promise<void> {
  container.register(SALES_TAX_RUNTIME, asValue(salesTaxRuntime()))
}
