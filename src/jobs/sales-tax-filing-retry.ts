import type { MedusaContainer } from "@medusajs/framework/types"
import { processDueFilings } from "../filing/events/orders"

/** Retries due filing work (failed calls, with back-off, up to filing.maxAttempts). */
export default async function salesTaxFilingRetryJob(container: MedusaContainer) {
  await processDueFilings(container, 100)
}

export const config = {
  name: "sales-tax-filing-retry",
  schedule: "* * * * *",
}
