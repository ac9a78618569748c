/**
 * What a failed quote becomes: a refused destination is the shopper's error; else "block" refuses the cart update,
 * "fallback" taxes it at the last-known / configured / region rates (the boot warns of states it has none for), and a
 * refused API key logs one error a minute.
 */
import type { ItemTaxCalculationLine, ShippingTaxCalculationLine } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { US_STATES, type Address } from "../../../packages/contract/src/index"
import { isKeyRefused, isSalesTaxError } from "../../service/client"
import type { PluginOptions } from "../../options"
import { BLOCK_ERROR_CODE, BLOCK_ERROR_MESSAGE, TAX_LINE_CODE_FALLBACK, TAX_LINE_NAME_FALLBACK } from "../../constants"
import type { CartSnapshot } from "../../service/cart/context"
import { freshestByTic, LAST_KNOWN_MAX_AGE_MS, zipKey, type KnownRate, type RateMemory } from "../../service/last-known-rates"
import { BrokenCircuitError, isOutage, markOutage } from "./health"
import type { ProviderStats, QuoteLogger, TaxLine } from "./quote-types"

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

export interface FailurePolicyDeps {
  options: PluginOptions
  logger: QuoteLogger
  stats: ProviderStats
  providerId: string
  rateMemory(): RateMemory
}

/** The failure policy of one provider, with its memory of refused keys (per connection). */
export class FailurePolicy {
  /** a refused API key is logged at most once a minute per connection */
  readonly #keyRefusedLog = new OncePer(60_000)
  /** Connections whose last failed call was a refused key (cleared by their next answered call): an open circuit then is the key's. */
  readonly #keyRefused = new Set<string>()

  constructor(private readonly deps: FailurePolicyDeps) {}

  /** A call of the client's connection was answered: a refused key of it is fixed. */
  answered(client: { readonly settings: { connectionId: string } }): void {
    if (this.#keyRefused.size) this.#keyRefused.delete(client.settings.connectionId)
  }

  /** The tax lines of a failed quote (fallback), or the error that refuses the cart update. */
  async onFailure(
    err: unknown,
    connectionId: string,
    snapshot: CartSnapshot,
    destination: Address,
    itemLines: ItemTaxCalculationLine[],
    shippingLines: ShippingTaxCalculationLine[],
  ): Promise<TaxLine[]> {
    const { options, logger } = this.deps
    const refused = addressRefusal(err)
    if (refused) throw refused
    const why = err instanceof BrokenCircuitError ? "circuit open" : err instanceof Error ? err.message : String(err)
    if (isOutage(err)) markOutage()
    // a refused API key (or the circuit it opened): the policy as for an outage, logged as above
    if (isKeyRefused(err)) this.#keyRefused.add(connectionId)
    const keyRefused = isKeyRefused(err) || (err instanceof BrokenCircuitError && this.#keyRefused.has(connectionId))
    if (keyRefused && this.#keyRefusedLog.take(connectionId)) {
      const status = isSalesTaxError(err) ? `${err.status} ${err.title}` : "circuit open after refusals"
      logger.error(
        `sales-tax: the service refused the API key for connection ${connectionId} (${status}); checkout follows failurePolicy "${options.failurePolicy}" until the key is fixed (check the connection's apiKey; logged once a minute)`,
      )
    }
    const block = (detail: string): never => {
      if (!keyRefused) logger.warn(`sales-tax: service unavailable (${why}); ${detail}`)
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, BLOCK_ERROR_MESSAGE, BLOCK_ERROR_CODE)
    }
    if (options.failurePolicy === "block") return block(`failurePolicy "block" refuses the cart update`)

    // fallback (fallbackRatesFor); a line nothing applies to refuses the cart as "block"
    const zip = zipKey(destination.zip)
    const { ticOf, tics } = fallbackTics(snapshot, itemLines, shippingLines, options)
    let known = new Map<number, KnownRate>()
    try {
      const now = new Date()
      known = freshestByTic(await this.deps.rateMemory().knownRates(zip, tics, new Date(now.getTime() - LAST_KNOWN_MAX_AGE_MS)), now)
    } catch (e) {
      logger.warn(`sales-tax: last-known rates could not be read (${(e as Error)?.message ?? e})`)
    }
    const configured = options.fallbackRates?.[destination.state.toUpperCase()] ?? options.fallbackRate
    const { lines, missing } = fallbackTaxLines({
      itemLines,
      shippingLines,
      ticOf,
      options,
      known,
      configured,
      providerId: this.deps.providerId,
      why,
    })
    if (missing.length) {
      return block(
        `failurePolicy "fallback" has no rate for ZIP ${zip} (no last-known rate, no fallbackRates.${destination.state.toUpperCase()} / fallbackRate, no region rate): the cart update is refused`,
      )
    }
    this.deps.stats.fallbacks++
    if (!keyRefused)
      logger.warn(`sales-tax: service unavailable (${why}); using fallback rates, the order will be filed with the tax charged`)
    return lines
  }
}
