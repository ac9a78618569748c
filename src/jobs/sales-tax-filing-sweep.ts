import type { MedusaContainer } from "@medusajs/framework/types"
import { sweepSlot } from "../filing/events/sweep"

/** The lost-event sweep and the retention: ticks every minute, runs once per sweep.everyMinutes. */
export default async function salesTaxFilingSweepJob(container: MedusaContainer) {
  await sweepSlot(container)
}

export const config = {
  name: "sales-tax-filing-sweep",
  schedule: "* * * * *",
}
