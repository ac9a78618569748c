import type { MedusaContainer } from "@medusajs/framework/types"
import { processDueFilingsWorkflow } from "../workflows/filing/workflows"

/**
 * Retries filing work that is due (failed calls, with exponential backoff, up to
 * filing.maxAttempts; then the record stays "failed" for a person / the admin retry route).
 */
export default async function salesTaxFilingRetryJob(container: MedusaContainer) {
  await processDueFilingsWorkflow(container).run({ input: { limit: 100 } })
}

export const config = {
  name: "sales-tax-filing-retry",
  schedule: "* * * * *",
}
