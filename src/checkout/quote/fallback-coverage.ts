/**
 * At boot, under "fallback": ONE warning naming the US states for which an outage would find
 * nothing configured: there an outage falls back to last-known rates only, and a ZIP never quoted
 * is refused (as under "block").
 */
import type { PluginOptions } from "../../options"
import { fallbackGaps, US_STATES } from "./fallback"
import type { QuoteLogger } from "./quote-types"
import type { RegionStates } from "../../medusa/tax-rate-service"

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
  if (options.failurePolicy !== "fallback") return null
  const msg = coverageWarning(fallbackGaps(options, regionStates), !!regionStates)
  if (msg) logger.warn(msg)
  return msg
}
