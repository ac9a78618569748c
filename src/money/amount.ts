import type { BigNumberInput } from "@medusajs/framework/types"
import { BigNumber, MathBN } from "@medusajs/framework/utils"
import BigNumberJS from "bignumber.js"

/**
 * Medusa's amounts as Query, the module CRUD and the workflow hooks hand them over: a number, a
 * decimal string, Medusa's BigNumber, a bignumber.js value, or a raw `{ value, precision }`
 * column. These are the plugin's only readers of such values; arithmetic on them then goes
 * through `dec` (./index).
 */
export function isAmount(v: unknown): v is BigNumberInput {
  if (typeof v === "number" || typeof v === "string") return true
  if (typeof v !== "object" || v === null) return false
  if (v instanceof BigNumber || BigNumberJS.isBigNumber(v)) return true
  const raw: { value?: unknown } = v
  return typeof raw.value === "string" || typeof raw.value === "number"
}

/** A Medusa amount as a decimal string (MathBN's notation); absent → "0", unreadable → "NaN". */
export function amountString(v: unknown): string {
  if (v === null || v === undefined) return "0"
  return isAmount(v) ? MathBN.convert(v).toString() : "NaN"
}

/** A Medusa amount as a number; absent → null, unreadable → NaN. */
export function amountNumber(v: unknown): number | null {
  if (v === null || v === undefined) return null
  return isAmount(v) ? MathBN.convert(v).toNumber() : NaN
}
