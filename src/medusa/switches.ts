/** The boot check's switches: a reach-in whose assumption fails is turned off at start (the documented way instead). */
import { runtimeSlot } from "../runtime"

export type BoundarySwitch = "directTaxRun" | "nestedRun" | "cartRestore" | "orderSales"

const off = runtimeSlot("boundarySwitchesOff", () => new Set<BoundarySwitch>())

export const switchOn = (s: BoundarySwitch): boolean => !off().has(s)

export function setSwitch(s: BoundarySwitch, on: boolean): void {
  if (on) off().delete(s)
  else off().add(s)
}
