/** The outage path's helpers: the boot warning naming the states "fallback" has nothing for, and a line's fallback rates. */
import type { PluginOptions } from "../../options"
import { US_STATES } from "../../../packages/contract/src/index"
import type { RegionStates } from "../../medusa/tax-rate-service"
import type { QuoteLogger } from "./quote-types"

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

/** The coverage check: its warning logged and returned (null: covered, or not under "fallback"). */
export function checkFallbackCoverage(options: PluginOptions, logger: QuoteLogger, regionStates: RegionStates | undefined): string | null {
  const msg = coverageWarning(fallbackGaps(options, regionStates), !!regionStates)
  if (msg) logger.warn(msg)
  return msg
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
