/** The app's filing wiring: the FilingProcessor over the filing module, the shared clients (one per connection), the Locking
 * Module and the plugin options; what handlers return. */
import { ContainerRegistrationKeys, Modules } from "../medusa/keys"
import type { MedusaContainer } from "@medusajs/framework/types"
import { getPluginOptions } from "../options"
import { getSalesTaxClient } from "../service/client-factory"
import { allApiKeys, optionsForConnection } from "../service/connections"
import { SALES_TAX_FILING_MODULE, type FilingRecordDTO } from "../modules/sales-tax-filing/types"
import type SalesTaxFilingModuleService from "../modules/sales-tax-filing/service"
import { FilingProcessor } from "./processor"
import type { FilingProcessorDeps } from "./processor-types"
import { SALES_TAX_MODULE } from "../constants"
import { forgetCertificates, type CertificateUses } from "../service/exemptions/registry"
import { runtimeOf } from "../runtime"

export function filingProcessor(container: MedusaContainer, overrides: HandlerDeps = {}): FilingProcessor {
  return new FilingProcessor(filingProcessorDeps(container, overrides))
}

/** What the app's FilingProcessor is made of (the backfill makes its own with them: ./backfill/medusa.ts). */
export function filingProcessorDeps(container: MedusaContainer, overrides: HandlerDeps = {}): FilingProcessorDeps {
  const options = getPluginOptions(container)
  const locking = container.resolve(Modules.LOCKING)
  return {
    store: filingStore(container),
    client: overrides.client ?? getSalesTaxClient(options).background(),
    // a test's client override stands for every connection
    clientFor: overrides.client
      ? () => overrides.client!
      : (connectionId) => getSalesTaxClient(optionsForConnection(options, connectionId)).background(),
    lock: (key, fn) => locking.execute(key, fn, { timeout: 120 }),
    now: overrides.now,
    maxAttempts: options.filing.maxAttempts,
    secrets: allApiKeys(options),
    logger: container.resolve(ContainerRegistrationKeys.LOGGER),
    // a single-purchase certificate's order was filed: recorded as used (shown in the widgets), and
    // the customer's certificate list forgotten (it no longer exempts)
    certificateUsed: async (u) => {
      const uses = container.resolve<CertificateUses | undefined>(SALES_TAX_MODULE, {
        allowUnregistered: true,
      })
      await uses?.markCertificateUsed(u)
      if (u.customerId) await forgetCertificates(runtimeOf(container))?.(u.customerId, container)
    },
  }
}

/** What a handler's caller may put in place of the app's (a test's client and clock). */
export type HandlerDeps = Partial<Pick<FilingProcessorDeps, "client" | "now">>

export type FilingResult = ReturnType<typeof result>

export const result = (orderId: string, rec: FilingRecordDTO | null) => ({
  orderId,
  state: rec?.state ?? null,
  lastError: rec?.last_error ?? null,
})

/** The reason a record was skipped with, before needs_attention existed, for a US address whose state or ZIP did not resolve. */
export const UNRESOLVED_SKIP = /^not filed: destination no_(state|zip)$/

export function filingStore(container: MedusaContainer): SalesTaxFilingModuleService {
  return container.resolve<SalesTaxFilingModuleService>(SALES_TAX_FILING_MODULE)
}

/** The API key, never to be logged (none when the options do not parse: the failure being logged may be theirs). */
export function secretOf(container: MedusaContainer): string | undefined {
  try {
    return getPluginOptions(container).apiKey
  } catch {
    return undefined
  }
}
