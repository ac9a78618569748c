import type { MedusaContainer } from "@medusajs/framework/types"
import { dailyNexusWarnings } from "../nexus/medusa"

/** Economic nexus warnings: each state past 80 % or 100 % of its threshold where the store is not registered, once per level and period. */
export default async function salesTaxNexusJob(container: MedusaContainer) {
  await dailyNexusWarnings(container)
}

export const config = {
  name: "sales-tax-nexus",
  schedule: "0 6 * * *",
}
