/**
 * At boot, under "fallback": the US states for which an outage would find nothing configured
 * (no `fallbackRates` entry, no `fallbackRate`, no default rate in a US tax region). One warning
 * names them and the option to set: for those states an outage falls back to last-known rates
 * only, and a ZIP never quoted is refused (as under "block").
 */
import type { PluginOptions } from "../../options"
import { fallbackGaps, US_STATES } from "./fallback"
import type { QuoteLogger } from "./quote-types"

/** A default tax rate as the Tax Module's rate service lists it, with its region. */
export type RegionRateRow = { rate?: number | null; tax_region?: { country_code?: string | null; province_code?: string | null } | null }

/** The Tax Module's rate service (resolved from the provider's container when there is one). */
export interface TaxRateLister {
  list(filters: unknown, config: unknown): Promise<RegionRateRow[]>
}

/** Pure: which US states the default region rates cover (`all`: a country-wide US rate). */
export function usRegionStates(rows: readonly RegionRateRow[]): { all: boolean; states: string[] } {
  const us = rows.filter(
    (r) => r?.rate !== null && r?.rate !== undefined && String(r?.tax_region?.country_code ?? "").toLowerCase() === "us",
  )
  return {
    all: us.some((r) => !r.tax_region?.province_code),
    states: us
      .map((r) =>
        String(r.tax_region?.province_code ?? "")
          .toUpperCase()
          .replace(/^US-/, ""),
      )
      .filter(Boolean),
  }
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
export async function checkFallbackCoverage(
  options: PluginOptions,
  logger: QuoteLogger,
  rates: TaxRateLister | undefined,
): Promise<string | null> {
  if (options.failurePolicy !== "fallback") return null
  let regionStates: { all: boolean; states: string[] } | undefined
  try {
    if (rates) regionStates = usRegionStates(await rates.list({ is_default: true }, { relations: ["tax_region"] }))
  } catch {
    regionStates = undefined
  }
  const msg = coverageWarning(fallbackGaps(options, regionStates), !!regionStates)
  if (msg) logger.warn(msg)
  return msg
}
