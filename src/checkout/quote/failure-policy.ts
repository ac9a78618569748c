/**
 * What a failed quote becomes (the provider's onFailure): a refused destination is the shopper's error; else "block"
 * refuses the cart update, "fallback" taxes it at the last-known / configured / region rates (the boot warns of states
 * it has none for), and a refused API key logs one error a minute.
 */
import type { ItemTaxCalculationLine, ShippingTaxCalculationLine } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { US_STATES } from "../../../packages/contract/src/index"
import { isSalesTaxError } from "../../service/client"
import type { PluginOptions } from "../../options"
import { TAX_LINE_CODE_FALLBACK, TAX_LINE_NAME_FALLBACK } from "../../constants"
import type { CartSnapshot } from "../../service/cart/context"
import type { KnownRate } from "../../service/last-known-rates"
import { isOutage } from "./health"
import type { TaxLine } from "./quote-types"

type FallbackOptions = Pick<PluginOptions, "defaultTic" | "shippingTic">

/** Pure: the US states "fallback" has no `fallbackRates` entry, `fallbackRate` nor (when known) US tax region rate for. */
export function fallbackGaps(
  o: Pick<PluginOptions, "failurePolicy" | "fallbackRate" | "fallbackRates">,
  region?: { all: boolean; states: readonly string[] },
): string[] {
  if (o.failurePolicy !== "fallback" || o.fallbackRate !== undefined || region?.all) return []
  const covered = new Set([...Object.keys(o.fallbackRates ?? {}), ...(region?.states ?? [])].map((s) => s.toUpperCase()))
  return US_STATES.filter((s) => !covered.has(s))
}

/** Pure: the boot warning for the states `gaps` lists (none: null); `regionsRead` false when the region rates could not be read. */
export function coverageWarning(gaps: readonly string[], regionsRead: boolean): string | null {
  if (!gaps.length) return null
  return (
    `sales-tax: failurePolicy "fallback" has no rate to fall back on for ${gaps.length === US_STATES.length ? "any US state" : gaps.join(", ")}` +
    `${regionsRead ? "" : " (the tax regions' rates could not be read)"}: during an outage such carts get the last-known rate of their ZIP, ` +
    `and a ZIP never quoted is refused as under "block". Set the option \`fallbackRates\` (per state, e.g. { TX: 8.25 }) or \`fallbackRate\`, or give the US tax region a default rate.`
  )
}

/** One fallback rate of a line: a percentage and where it came from (recorded on the tax line as `fallback_source`). */
export interface FallbackRate {
  rate: number
  source: "last_known" | "option" | "region"
  label?: string
}

/**
 * Pure: a line's fallback rates, or null (refused: never a silent 0 %): the last-known rate above 0 %, the configured
 * rate, the region's rates, then a learned 0 % (it may only say a cheaper item sat under a price threshold).
 */
export function fallbackRatesFor(
  learnedPct: string | undefined,
  configuredPct: number | undefined,
  regionRates: readonly { rate?: number | null; code?: string | null; name?: string | null }[],
): FallbackRate[] | null {
  const learned = learnedPct === undefined ? undefined : Number(learnedPct)
  if (learned !== undefined && Number.isFinite(learned) && learned > 0) return [{ rate: learned, source: "last_known" }]
  if (configuredPct !== undefined) return [{ rate: configuredPct, source: "option" }]
  const region = regionRates.filter((r) => r.rate !== null && r.rate !== undefined)
  if (region.length) return region.map((r) => ({ rate: r.rate!, source: "region", label: r.name ?? r.code ?? "region rate" }))
  if (learned === 0) return [{ rate: 0, source: "last_known" }]
  return null
}

/** At most one `take(key)` is true per key per `everyMs` (a refused key logged once a minute, not per request). */
export class OncePer {
  readonly #last = new Map<string, number>()
  constructor(readonly everyMs: number) {}
  take(key: string, now: number = Date.now()): boolean {
    const last = this.#last.get(key)
    if (last !== undefined && now - last < this.everyMs && now >= last) return false
    this.#last.set(key, now)
    return true
  }
}

/** Pure: the shopper-facing error when the service refused the destination (a located 4xx), else null. */
export function addressRefusal(err: unknown): MedusaError | null {
  if (isOutage(err) || !isSalesTaxError(err)) return null
  const located = err.errors.filter((e) => /destination/.test(e.location))
  if (!located.length) return null
  return new MedusaError(
    MedusaError.Types.INVALID_DATA,
    `The shipping address could not be used for sales tax: ${located.map((e) => `${e.location.replace(/^body\.items\[0\]\.destination\.?/, "") || "address"} ${e.message}`).join("; ")}`,
  )
}

/** Pure: each item's TIC (the snapshot's, else `defaultTic`) and the distinct TICs the lines need (shipping's when shipped). */
export function fallbackTics(
  snapshot: Pick<CartSnapshot, "items">,
  itemLines: readonly ItemTaxCalculationLine[],
  shippingLines: readonly ShippingTaxCalculationLine[],
  o: FallbackOptions,
): { ticOf: Map<string, number>; tics: number[] } {
  const ticOf = new Map<string, number>(snapshot.items.map((i) => [i.id, i.tic ?? o.defaultTic]))
  const tics = [
    ...new Set([...itemLines.map((l) => ticOf.get(l.line_item.id) ?? o.defaultTic), ...(shippingLines.length ? [o.shippingTic] : [])]),
  ]
  return { ticOf, tics }
}

/** Pure: the fallback tax lines (fallbackRatesFor per line), and the ids of the lines nothing applies to. */
export function fallbackTaxLines(input: {
  itemLines: readonly ItemTaxCalculationLine[]
  shippingLines: readonly ShippingTaxCalculationLine[]
  ticOf: ReadonlyMap<string, number>
  options: FallbackOptions
  known: ReadonlyMap<number, KnownRate>
  /** fallbackRates[state] ?? fallbackRate */
  configured: number | undefined
  providerId: string
  /** why the service was not used (recorded on each line, cut to 200 characters) */
  why: string
}): { lines: TaxLine[]; missing: string[] } {
  const { known, configured, options: o } = input
  const reason = input.why.slice(0, 200)
  const linesFor = (tic: number, rates: { rate?: number | null; code?: string | null; name?: string }[]) =>
    fallbackRatesFor(known.get(tic)?.rate, configured, rates)?.map((r) => ({
      rate: r.rate,
      code: TAX_LINE_CODE_FALLBACK,
      name: r.label ? `${TAX_LINE_NAME_FALLBACK}: ${r.label}` : TAX_LINE_NAME_FALLBACK,
      provider_id: input.providerId,
      data: { fallback: true, fallback_source: r.source, reason },
    }))
  const out: TaxLine[] = []
  const missing: string[] = []
  for (const l of input.itemLines) {
    const lines = linesFor(input.ticOf.get(l.line_item.id) ?? o.defaultTic, l.rates)
    if (!lines) missing.push(l.line_item.id)
    else out.push(...lines.map((t) => ({ ...t, line_item_id: l.line_item.id })))
  }
  for (const l of input.shippingLines) {
    const lines = linesFor(o.shippingTic, l.rates)
    if (!lines) missing.push(l.shipping_line.id)
    else out.push(...lines.map((t) => ({ ...t, shipping_line_id: l.shipping_line.id })))
  }
  return { lines: out, missing }
}
