/** Pure: the arguments of the classify script (src/scripts/classify-products.ts). */
import { MIN_ACCEPT_ALL } from "./combine"

export type ClassifyArgs = { apply: false } | { apply: true; minConfidence: number }

/** `[]` lists; `--apply --min-confidence X` applies; anything else is an error sentence. */
export function parseClassifyArgs(args: readonly string[]): ClassifyArgs | { error: string } {
  const rest = [...args]
  let apply = false
  let min: number | null = null
  while (rest.length) {
    const a = rest.shift()!
    const [flag, inline] = a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined]
    if (flag === "--apply" && inline === undefined) apply = true
    else if (flag === "--min-confidence") {
      const v = inline ?? rest.shift()
      const n = v === undefined || v.trim() === "" ? NaN : Number(v)
      if (!Number.isFinite(n) || n < MIN_ACCEPT_ALL || n > 1)
        return { error: `--min-confidence must be a number from ${MIN_ACCEPT_ALL} to 1 (got ${v === undefined ? "nothing" : `"${v}"`})` }
      min = n
    } else return { error: `unknown argument "${a}" (the arguments are --apply and --min-confidence <0.5-1>)` }
  }
  if (apply && min === null) return { error: "--apply needs --min-confidence <0.5-1>: which suggestions to accept" }
  if (!apply && min !== null) return { error: "--min-confidence without --apply: add --apply to set the TICs" }
  return apply ? { apply, minConfidence: min! } : { apply: false }
}
