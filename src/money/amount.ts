import type { BigNumberInput } from "@medusajs/framework/types"
import BigNumberJS from "bignumber.js"

/**
 * Medusa's amounts as Query, the module CRUD and the workflow hooks hand them over: a number, a
 * decimal string, Medusa's BigNumber, a bignumber.js value, or a raw `{ value, precision }`
 * column. These are the plugin's only readers of such values; arithmetic on them then goes
 * through `dec` (./index).
 *
 * Read as Medusa's `MathBN.convert` reads them (amount.test.ts compares the two on every form),
 * without loading `@medusajs/framework/utils` for it: Medusa's BigNumber is known by its shape
 * (its `bigNumber` is a bignumber.js value), which also holds for one from another copy of
 * `@medusajs/utils`, where an `instanceof` would not.
 */
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
