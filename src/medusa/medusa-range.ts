/**
 * BOUNDARY: the oldest Medusa the plugin runs on and the installed version (@medusajs/medusa's package.json).
 * Below it: ONE boot error, US carts refused at completion (no US order untaxed). Test: medusa-range.test.ts.
 */
import { runtimeSlot } from "../runtime"

export const MEDUSA_MINIMUM = "2.15.0"

export const MEDUSA_UNSUPPORTED_CODE = "sales_tax_medusa_unsupported"

export function installedMedusaVersion(): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require("@medusajs/medusa/package.json") as { version: string }).version
  } catch {
    return "(version unknown)"
  }
}

/** Pure: whether `version` (x.y.z, a pre-release suffix ignored) is older than `minimum`; false when unreadable. */
export function versionBelow(version: string, minimum: string = MEDUSA_MINIMUM): boolean {
  const parse = (v: string) => /^(\d+)\.(\d+)\.(\d+)/.exec(v.trim())?.slice(1).map(Number)
  const a = parse(version)
  const b = parse(minimum)
  if (!a || !b) return false
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! < b[i]!
  return false
}

/** Pure: the ONE boot error below the minimum. */
export function belowMinimumError(version: string, minimum: string = MEDUSA_MINIMUM): string {
  return (
    `sales-tax: Medusa ${version} is older than this plugin supports (${minimum} or newer): update @medusajs/* to ${minimum} or newer. ` +
    `Until then US carts are refused at completion (${MEDUSA_UNSUPPORTED_CODE}), so no US order is placed untaxed.`
  )
}

/** Pure: the completion refusal's message below the minimum (what the storefront shows). */
export function unsupportedMedusaMessage(version: string, minimum: string = MEDUSA_MINIMUM): string {
  return `Sales tax cannot be calculated for this order: this store runs Medusa ${version}, older than the sales tax plugin supports (${minimum}).`
}

export const medusaBelowMinimum = runtimeSlot("medusaBelowMinimum", () => versionBelow(installedMedusaVersion()))
