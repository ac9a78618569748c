import { randomUUID } from "node:crypto"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { getPluginOptions } from "../options"
import { applyRetention } from "../filing/retention"
import { sweepFilingsWorkflow } from "../workflows/filing/workflows"

export const SWEEP_SLOT_KEY = "sales-tax-filing-sweep-slot"

/**
 * The lost-event sweep. Ticks every minute on every instance; one sweep runs per
 * `sweep.everyMinutes` across all of them: the tick that takes the slot lock (Medusa's Locking
 * Module, `@medusajs/locking-redis` across processes) runs it, and the lock is left to expire,
 * which opens the next slot. Orders are then processed under their own filing locks. The same
 * slot applies the retention: street lines of old filing records, old service-call log entries.
 */
export default async function salesTaxFilingSweepJob(container: MedusaContainer) {
  const options = getPluginOptions(container)
  const locking = container.resolve(Modules.LOCKING)
  try {
    await locking.acquire(SWEEP_SLOT_KEY, { ownerId: `sweep-${randomUUID()}`, expire: options.sweep.everyMinutes * 60 })
  } catch {
    return // another instance (or an earlier tick) holds this slot
  }
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  try {
    const { result } = await sweepFilingsWorkflow(container).run({ input: { days: options.sweep.days } })
    if (result.broughtInLine.length)
      logger.info(`sales-tax filing sweep: ${result.checked} orders checked, ${result.broughtInLine.length} brought in line`)
  } finally {
    await applyRetention(container, options, new Date()).catch((e: unknown) =>
      logger.warn(`sales-tax retention: ${(e as Error)?.message ?? e} (tried again at the next sweep)`),
    )
  }
}

export const config = {
  name: "sales-tax-filing-sweep",
  schedule: "* * * * *",
}
