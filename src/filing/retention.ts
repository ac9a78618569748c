/**
 * Retention, applied by the sweep job on its slot: the street lines of filing records older than
 * `filing.addressRetentionDays` (the pure part: src/modules/sales-tax-filing/retention.ts) and the
 * service-call log's entries older than `log.retentionDays` (also pruned as new calls are written).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import type { PluginOptions } from "../options"
import { SALES_TAX_FILING_MODULE } from "../modules/sales-tax-filing/types"
import type SalesTaxFilingModuleService from "../modules/sales-tax-filing/service"
import { daysBefore } from "../modules/sales-tax-filing/retention"
import { SALES_TAX_MODULE } from "../modules/sales-tax"
import type { SalesTaxModuleService } from "../modules/sales-tax/service"

/** Street lines of old filing records (filing.addressRetentionDays) and old call-log entries (log.retentionDays) removed. */
export async function applyRetention(
  container: MedusaContainer,
  options: PluginOptions,
  now: Date,
): Promise<{ streets: number; calls: number }> {
  const filing = container.resolve<Pick<SalesTaxFilingModuleService, "removeStreetLines">>(SALES_TAX_FILING_MODULE)
  const salesTax = container.resolve<Pick<SalesTaxModuleService, "pruneCallLog">>(SALES_TAX_MODULE)
  const streets = await filing.removeStreetLines(daysBefore(now, options.filing.addressRetentionDays), now)
  const calls = await salesTax.pruneCallLog(daysBefore(now, options.log.retentionDays))
  return { streets, calls }
}
