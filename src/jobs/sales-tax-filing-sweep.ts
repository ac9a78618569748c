import { sweepSlot } from "../filing/events/sweep"

/** The lost-event sweep and the retention: ticks every minute, runs once per sweep.everyMinutes. */
export default sweepSlot

export const config = {
  name: "sales-tax-filing-sweep",
  schedule: "* * * * *",
}
