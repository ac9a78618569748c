import { randomUUID } from "node:crypto"
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { logNexusWarnings } from "../nexus/medusa"

export const NEXUS_SLOT_KEY = "sales-tax-nexus-slot"

/**
 * Economic nexus warnings (src/nexus): once a day, one instance (the slot lock) logs a warning for
 * each state that crossed 80 % or 100 % of its threshold where the store is not registered, once per
 * state, level and period.
 */
export default async function salesTaxNexusJob(container: MedusaContainer) {
  const locking = container.resolve(Modules.LOCKING)
  try {
    await locking.acquire(NEXUS_SLOT_KEY, { ownerId: `nexus-${randomUUID()}`, expire: 3600 })
  } catch {
    return // another instance runs today's check
  }
  await logNexusWarnings(container)
}

export const config = {
  name: "sales-tax-nexus",
  schedule: "0 6 * * *",
}
