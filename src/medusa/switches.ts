/**
 * The boot check's switches: a reach-in whose assumption the installed Medusa breaks is turned off
 * at start (one error logged) and the plugin takes the documented way instead. Kept in the plugin's
 * runtime, all on until the boot check says otherwise (tests: set back on).
 */
import { runtimeSlot } from "../runtime"

export type BoundarySwitch = "directTaxRun" | "nestedRun" | "cartRestore" | "orderSales"

const off = runtimeSlot("boundarySwitchesOff", () => new Set<BoundarySwitch>())

export const switchOn = (s: BoundarySwitch): boolean => !off().has(s)

export function setSwitch(s: BoundarySwitch, on: boolean): void {
  if (on) off().delete(s)
  else off().add(s)
}
