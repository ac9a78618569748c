/** What every filing event handler shares: its dependencies, its result, the filing store. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { SALES_TAX_FILING_MODULE, type FilingRecordDTO, type FilingStore } from "../../modules/sales-tax-filing/types"
import type { FilingClient } from "../processor-types"
import type SalesTaxFilingModuleService from "../../modules/sales-tax-filing/service"

export interface HandlerDeps {
  client?: FilingClient
  now?: () => Date
}

export interface FilingResult {
  orderId: string
  state: string | null
  lastError?: string | null
}

export const result = (orderId: string, rec: FilingRecordDTO | null): FilingResult => ({
  orderId,
  state: rec?.state ?? null,
  lastError: rec?.last_error ?? null,
})

/** The reason a record was skipped with, before needs_attention existed, for a US address whose state or ZIP did not resolve. */
export const UNRESOLVED_SKIP = /^not filed: destination no_(state|zip)$/

export function filingStore(container: MedusaContainer): FilingStore {
  return container.resolve<SalesTaxFilingModuleService>(SALES_TAX_FILING_MODULE)
}
