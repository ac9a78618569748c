import type { BigNumberInput } from "@medusajs/framework/types"
import BigNumberJS from "bignumber.js"

/** A Medusa amount in any form, read as `MathBN.convert` reads it without loading Medusa's utils (BigNumber known by its shape). */
function big(v: unknown): BigNumberJS | undefined {
  if (typeof v === "number" || typeof v === "string") return new BigNumberJS(v)
  if (typeof v !== "object" || v === null) return undefined
  if (BigNumberJS.isBigNumber(v)) return new BigNumberJS(v)
  const o = v as { bigNumber?: unknown; value?: unknown }
  if (BigNumberJS.isBigNumber(o.bigNumber)) return new BigNumberJS(o.bigNumber)
  if (typeof o.value === "string" || typeof o.value === "number") return new BigNumberJS(o.value)
  return undefined
}

export function isAmount(v: unknown): v is BigNumberInput {
  return big(v) !== undefined
}

/** A Medusa amount as a decimal string (MathBN's notation); absent → "0", unreadable → "NaN". */
export function amountString(v: unknown): string {
  if (v === null || v === undefined) return "0"
  return big(v)?.toString() ?? "NaN"
}

/** A Medusa amount as a number; absent → null, unreadable → NaN. */
export function amountNumber(v: unknown): number | null {
  if (v === null || v === undefined) return null
  return big(v)?.toNumber() ?? NaN
}
