import type {
  ItemTaxCalculationLine,
  ItemTaxLineDTO,
  ITaxProvider,
  Logger,
  ShippingTaxCalculationLine,
  ShippingTaxLineDTO,
  TaxCalculationContext,
} from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type { Address, CalculateCartsRequest, CartIn, CartOut } from "../../service/contract"
import { isSalesTaxError, type SalesTaxClient } from "../../service/client"
import { getSalesTaxClient } from "../../service/client-factory"
import { connectionForChannel, optionsOn } from "../../service/connections"
import { resolvePluginOptions, type PluginOptions } from "../../options"
import { dec } from "../../money"
import { solvedRate } from "../inclusive/back-solve"
import { backSolveInclusiveRate, resolveInclusive, type LineAnswer } from "../inclusive/inclusive"
import { inclusiveLines, inclusiveMixRefusal, withNets } from "../inclusive/inclusive-cart"
import { InclusiveHints } from "../inclusive/inclusive-hints"
import { buildServiceCart, cartHash, cartsRequest, itemFigures, itemTaxable, shippingFigures } from "../cart/build-service-cart"
import {
  BLOCK_ERROR_CODE,
  BLOCK_ERROR_MESSAGE,
  CONTEXT_KEY,
  SALES_TAX_PROVIDER_IDENTIFIER,
  SHIPPING_ITEM_PREFIX,
  TAX_INCLUSIVE_ERROR_CODE,
  TAX_LINE_CODE,
  TAX_LINE_CODE_EXEMPT,
  TAX_LINE_CODE_FALLBACK,
  TAX_LINE_NAME,
  TAX_LINE_NAME_EXEMPT,
  TAX_LINE_NAME_FALLBACK,
} from "../../constants"
import { CartSnapshot, parseCartSnapshot, type SnapshotItem, type SnapshotShipping } from "../cart/context"
import { groupByOrigin, refusedLocations, shareRefusal, stillRefused, type RefusalCache } from "../origins/origins"
import {
  MedusaCacheStore,
  MedusaCachingStore,
  MemoryStore,
  QuoteCache,
  type CacheModuleLike,
  type CachingModuleLike,
  type QuoteStore,
} from "./result-cache"
import {
  activeCertificates,
  CachingCertificateStore,
  certificateCache,
  invalidateCustomerCertificates,
  pickExemption,
  refusesCertificate,
  registerCertificateConnections,
} from "../exemptions/exemptions"
import { BrokenCircuitError, CircuitBreaker } from "./circuit-breaker"
import type { CertificateRecord } from "../../service/contract"
import {
  freshestByTic,
  InMemoryRateMemory,
  LAST_KNOWN_MAX_AGE_MS,
  lineRateToRemember,
  registeredRateMemory,
  zipKey,
  type KnownRate,
  type RateMemory,
  WrittenRates,
} from "../../modules/sales-tax/last-known-rates"
import { fallbackGaps, fallbackRatesFor, OncePer, US_STATES, withDeadline } from "./fallback"
import { quoteDestination, stampDestination } from "../address/destination"
import { markOutage, markServiceOk, quoteHealth } from "./health"
import { servesRequests } from "../../core/serving"

type TaxLine = ItemTaxLineDTO | ShippingTaxLineDTO

/** A tax line before its line's id is set (taxLines sets line_item_id or shipping_line_id). */
type TaxLineOut = {
  code: string
  name: string
  provider_id: string
  data: Record<string, unknown>
  rate: number
  line_item_id?: string
  shipping_line_id?: string
}

/** A quote as cached: the service's cart answer, reduced to what the lines need. */
export interface Quote {
  hash: string
  exemptionId: string | null
  /** Why the certificate was applied (the snapshot's verified identity), or null. */
  exemptionBasis?: string | null
  /** The customer the certificate was applied for. */
  exemptCustomerId?: string | null
  lines: Record<
    string,
    {
      amount: number
      rate: number
      tic: number | null
      /** Tax-inclusive line: the net quoted (dollars) and shown − net − amount (0, or one cent where no net exists). */
      net?: string
      residual?: string
      /** Where the line ships from: its stock location (null: the `origin` option) and the address quoted. */
      origin?: { locationId: string | null; address: Address }
    }
  >
  /** Service calls the tax-inclusive split took (absent for an all-exclusive cart). */
  inclusiveCalls?: number
}
type QuoteLine = Quote["lines"][string]

/** One quote's connection, its circuit breaker, and when the quote must be done (epoch ms). */
interface QuoteRun {
  conn: { connectionId: string; client: SalesTaxClient; isDefault: boolean }
  breaker: CircuitBreaker
  deadline: number
}

/** Stats for tests and the bench. */
export interface ProviderStats {
  getTaxLines: number
  serviceCalls: number
  cacheHits: number
  fallbacks: number
  skippedNoAddress: number
  /** Certificates the service refused at quote time (dropped from the quote). */
  refusedCertificates: number
  /** Duration of the slowest quote (ms), certificate lookup included. */
  slowestQuoteMs: number
  /** Stock locations whose address the service refused as an origin (each counted once). */
  refusedOrigins: number
}

interface Deps {
  logger?: Logger
  [key: string]: unknown
}

function tryResolve<T>(cradle: Deps, key: string): T | undefined {
  try {
    return (cradle as Record<string, unknown>)[key] as T | undefined
  } catch {
    return undefined
  }
}

/** lineRateToRemember(price × quantity, amount, the service's rate), memoized (the same lines come back across carts); cleared when full. */
const ratePctMemo = new Map<string, string | null>()
function lineRatePct(price: number, quantity: number, amount: number, serviceRate: number): string | null {
  const key = `${price}|${quantity}|${amount}|${serviceRate}`
  const got = ratePctMemo.get(key)
  if (got !== undefined) return got
  const rate = lineRateToRemember(dec(price).times(quantity), amount, serviceRate)
  if (ratePctMemo.size >= 20_000) ratePctMemo.clear()
  ratePctMemo.set(key, rate)
  return rate
}

/** Whether a failure means "the service is not answering properly" (counts for the breaker and the policy). */
export function isOutage(err: unknown): boolean {
  if (err instanceof BrokenCircuitError) return true
  if (!isSalesTaxError(err)) return true // unexpected: treat as an outage, never as a shopper error
  if (err.code === "validation") return false // refused by the client before sending: not the service's fault
  if (err.code === "timeout" || err.code === "network" || err.code === "response_validation") return true
  return err.status === null || err.status >= 500 || err.status === 429 || err.status === 401 || err.status === 403
}

/**
 * Whether a failure counts toward opening a circuit breaker: an outage (isOutage) but not the
 * service's 429. A 429 is the service throttling this account, not failing: counting it would let
 * anyone who drives enough distinct cart states open the breaker for every shopper. It still
 * follows the failure policy (isOutage), after its Retry-After when that fits the checkout time
 * bound (the client: a longer Retry-After is not waited for).
 */
export function countsForBreaker(err: unknown): boolean {
  return isOutage(err) && !(isSalesTaxError(err) && err.code === "http" && err.status === 429)
}

/** Whether the service refused the connection's API key (401 or 403 from the service). */
export function isKeyRefused(err: unknown): boolean {
  return isSalesTaxError(err) && err.code === "http" && (err.status === 401 || err.status === 403)
}

/** A refused API key is logged at most once per this many ms per connection. */
export const KEY_REFUSED_LOG_EVERY_MS = 60_000

/**
 * The Medusa tax module provider. Medusa calls getTaxLines twice per tax recalculation (items,
 * then shipping); both are served from one POST carts per distinct cart state.
 */
export class SalesTaxProviderService implements ITaxProvider {
  static identifier = SALES_TAX_PROVIDER_IDENTIFIER

  /** Called by Medusa's provider loader at boot: bad options stop the app with a clear message. */
  static validateOptions(options: Record<string, unknown>): void {
    resolvePluginOptions(options)
  }

  readonly options: PluginOptions
  /** The default connection's client (the probe; carts of channels without a connection of their own). */
  readonly client: SalesTaxClient
  /** A client per connection (option `connections`), by connection id. */
  readonly #clients = new Map<string, SalesTaxClient>()
  /** The connection of each sales channel seen ("" for none), as connectionFor answered it. */
  readonly #connectionOf = new Map<string, QuoteRun["conn"]>()
  readonly cache: QuoteCache<Quote>
  /** the default connection's circuit breaker (each connection has its own: breakerFor) */
  readonly breaker: CircuitBreaker
  readonly #breakers = new Map<string, CircuitBreaker>()
  readonly stats: ProviderStats = {
    getTaxLines: 0,
    serviceCalls: 0,
    cacheHits: 0,
    fallbacks: 0,
    skippedNoAddress: 0,
    refusedCertificates: 0,
    slowestQuoteMs: 0,
    refusedOrigins: 0,
  }
  protected readonly logger: Pick<Logger, "info" | "warn" | "error" | "debug">
  readonly certificateStore: QuoteStore<CertificateRecord[]>
  /** Certificates the service refused, not offered again until the TTL passes (id → until). */
  readonly #refused = new Map<string, number>()
  /** One error a minute per connection for a refused API key (onFailure). */
  readonly #keyRefusedLog = new OncePer(KEY_REFUSED_LOG_EVERY_MS)
  /** Connections whose last failed call was a refused key (cleared by their next answered call): an open circuit then is the key's. */
  readonly #keyRefused = new Set<string>()
  #warnedNoHook = false
  #warnedNoRateMemory = false
  #localRates: InMemoryRateMemory | undefined
  /** Rates this provider wrote, so that an unchanged one is not written again (last-known-rates.ts); public so that a test that restores the database can forget them. */
  readonly writtenRates = new WrittenRates()
  /** the rates already known per ZIP and TIC: a tax-inclusive state's first quote at the net they predict (inclusive-hints.ts) */
  readonly inclusiveHints = new InclusiveHints()
  /** The boot check of fallback coverage (see checkFallbackCoverage); its warning, if any. */
  readonly bootCheck: Promise<string | null>
  readonly #cradle: Deps

  constructor(cradle: Deps, options: Record<string, unknown>) {
    this.options = resolvePluginOptions(options)
    this.logger = tryResolve<Logger>(cradle, "logger") ?? console
    this.client = this.clientOn(this.options)
    this.#clients.set(this.options.connectionId, this.client)
    registerCertificateConnections(this.options.connections.map((c) => c.connectionId))
    this.cache = new QuoteCache<Quote>(this.pickStore(cradle), this.options.cacheTtlSeconds)
    this.breaker = this.breakerFor(this.options.connectionId)
    const caching = tryResolve<CachingModuleLike>(cradle, "caching")
    this.certificateStore =
      caching && typeof caching.get === "function" && typeof caching.set === "function"
        ? new CachingCertificateStore(caching)
        : certificateCache()
    const health = quoteHealth()
    health.policy = this.options.failurePolicy
    health.probe = () => this.probe()
    this.#cradle = cradle
    // logged by the process that serves requests only, not by every CLI command (src/core/serving.ts)
    this.bootCheck = servesRequests()
      ? new Promise<string | null>((resolve) => setImmediate(() => this.checkFallbackCoverage().then(resolve, () => resolve(null))))
      : Promise.resolve(null)
  }

  /**
   * At boot, under "fallback": the US states for which an outage would find nothing configured
   * (no `fallbackRates` entry, no `fallbackRate`, no default rate in a US tax region). One warning
   * names them and the option to set: for those states an outage falls back to last-known rates
   * only, and a ZIP never quoted is refused (as under "block"). Runs once when Medusa creates the
   * provider in the process that serves requests (at boot: src/medusa/boot-check.ts), not
   * in `medusa exec`, db:migrate and other CLI commands (src/core/serving.ts); callable again (tests, admin tooling).
   */
  async checkFallbackCoverage(): Promise<string | null> {
    const cradle = this.#cradle
    if (this.options.failurePolicy !== "fallback") return null
    let regionStates: { all: boolean; states: string[] } | undefined
    try {
      type RateRow = { rate?: number | null; tax_region?: { country_code?: string | null; province_code?: string | null } | null }
      const rates = tryResolve<{ list(f: unknown, c: unknown): Promise<RateRow[]> }>(cradle, "taxRateService")
      if (rates) {
        const list = await rates.list({ is_default: true }, { relations: ["tax_region"] })
        const us = list.filter(
          (r) => r?.rate !== null && r?.rate !== undefined && String(r?.tax_region?.country_code ?? "").toLowerCase() === "us",
        )
        regionStates = {
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
    } catch {
      regionStates = undefined
    }
    const gaps = fallbackGaps(this.options, regionStates)
    if (!gaps.length) return null
    const msg =
      `sales-tax: failurePolicy "fallback" has no rate to fall back on for ${gaps.length === US_STATES.length ? "any US state" : gaps.join(", ")}` +
      `${regionStates ? "" : " (the tax regions' rates could not be read)"}: during an outage such carts get the last-known rate of their ZIP, ` +
      `and a ZIP never quoted is refused as under "block". Set the option \`fallbackRates\` (per state, e.g. { TX: 8.25 }) or \`fallbackRate\`, or give the US tax region a default rate.`
    this.logger.warn(msg)
    return msg
  }

  /**
   * Is POST carts answering now? One tiny fixed cart (origin to origin, one unit at 1.00), through
   * the breaker (an open circuit fails at once, without a call) and within timeoutMs. Used by the
   * store middlewares under "block" before letting a cart change while an outage is on.
   */
  async probe(): Promise<void> {
    const origin = this.options.origin
    const cart: CartIn = {
      cartId: "medusa-sales-tax-probe",
      customerId: "medusa-sales-tax-probe",
      currency: { currencyCode: "USD" },
      origin,
      destination: origin,
      lineItems: [{ index: 0, itemId: "probe", price: 1, quantity: 1, tic: this.options.defaultTic }],
    }
    try {
      await this.breaker.execute(() => withDeadline(() => this.client.calculateCarts({ items: [cart] }), this.options.timeoutMs))
    } catch (e) {
      if (isOutage(e)) markOutage()
      throw e
    }
    markServiceOk()
  }

  /**
   * The circuit breaker of a connection: one per connection, so one account's outage
   * fails only its own channels' calls fast; the other connections keep quoting live.
   */
  breakerFor(connectionId: string): CircuitBreaker {
    let b = this.#breakers.get(connectionId)
    if (!b) {
      b = new CircuitBreaker({
        failures: this.options.circuitBreaker.failures,
        halfOpenAfterMs: this.options.circuitBreaker.halfOpenAfterMs,
        isFailure: countsForBreaker,
      })
      this.#breakers.set(connectionId, b)
    }
    return b
  }

  /** A checkout-path client on a connection: the whole call, retries included, within timeoutMs. */
  protected clientOn(o: Pick<PluginOptions, "connectionId" | "apiKey">): SalesTaxClient {
    return getSalesTaxClient(optionsOn(this.options, o), {
      retry: { maxAttempts: 2, baseDelayMs: 50, maxDelayMs: 200, maxElapsedMs: this.options.timeoutMs },
    })
  }

  /** The connection of a cart's sales channel and its client (option `connections`; else the default). */
  connectionFor(salesChannelId: string | null | undefined): QuoteRun["conn"] {
    // options do not change after boot: one answer per sales channel
    const k = salesChannelId ?? ""
    let got = this.#connectionOf.get(k)
    if (!got) {
      const c = connectionForChannel(this.options, salesChannelId)
      let client = this.#clients.get(c.connectionId)
      if (!client) this.#clients.set(c.connectionId, (client = this.clientOn(c)))
      this.#connectionOf.set(k, (got = { connectionId: c.connectionId, client, isDefault: c.isDefault }))
    }
    return got
  }

  /** The database-backed rate memory (module salesTax), else an in-process one. */
  protected rateMemory(): RateMemory {
    const m = registeredRateMemory()
    if (m) return m
    if (!this.#warnedNoRateMemory) {
      this.#warnedNoRateMemory = true
      this.logger.warn(
        "sales-tax: the salesTax module is not loaded: last-known rates are kept in process only (add the plugin to `plugins`)",
      )
    }
    return (this.#localRates ??= new InMemoryRateMemory())
  }

  protected pickStore(cradle: Deps): QuoteStore<Quote> {
    const caching = tryResolve<CachingModuleLike>(cradle, "caching")
    if (caching && typeof caching.get === "function" && typeof caching.set === "function") return new MedusaCachingStore<Quote>(caching)
    const cache = tryResolve<CacheModuleLike>(cradle, "cache")
    if (cache && typeof cache.get === "function" && typeof cache.set === "function") return new MedusaCacheStore<Quote>(cache)
    return new MemoryStore<Quote>()
  }

  getIdentifier(): string {
    return SalesTaxProviderService.identifier
  }

  async getTaxLines(
    itemLines: ItemTaxCalculationLine[],
    shippingLines: ShippingTaxCalculationLine[],
    context: TaxCalculationContext,
  ): Promise<TaxLine[]> {
    this.stats.getTaxLines++
    if (!itemLines.length && !shippingLines.length) return []
    const started = Date.now()
    // the address as typed, or as verify-address resolved it (destination.ts); one bound for both calls
    const deadline = started + this.options.timeoutMs
    const currency = itemLines[0]?.line_item.currency_code ?? shippingLines[0]?.shipping_line.currency_code
    const dest = await quoteDestination(context.address, currency, { options: this.options, client: () => this.client, deadline })
    if (!dest.address) {
      // not the US, a territory, not USD, or no state / ZIP the service can quote: zero tax, no quote
      // (a US cart left so is refused at completion: workflows/hooks/destination-guard.ts)
      this.stats.skippedNoAddress++
      if (dest.reason === "unavailable")
        this.logger.warn(`sales-tax: the destination could not be verified (${dest.detail}); the cart is untaxed for now`)
      return []
    }
    const snapshot = this.snapshotFor(itemLines, shippingLines, context)
    this.refuseTaxInclusive(snapshot)

    let quote: Quote
    try {
      quote = await this.quote(snapshot, dest.address, deadline)
    } catch (err) {
      return stampDestination(await this.onFailure(err, snapshot, dest.address, itemLines, shippingLines), dest.destination)
    } finally {
      this.stats.slowestQuoteMs = Math.max(this.stats.slowestQuoteMs, Date.now() - started)
    }
    return stampDestination(this.taxLines(snapshot, itemLines, shippingLines, quote), dest.destination)
  }

  /**
   * The tax lines of a quote, in getTaxLines' order (items, then shipping), in one pass. A line the
   * snapshot does not hold, or that the quote has no answer for (quantity 0), gets none. Medusa
   * passes the lines in the cart's order, so the snapshot's k-th item is tried first, then by id.
   */
  protected taxLines(
    snapshot: CartSnapshot,
    itemLines: ItemTaxCalculationLine[],
    shippingLines: ShippingTaxCalculationLine[],
    quote: Quote,
  ): TaxLine[] {
    const out: TaxLine[] = []
    const items = snapshot.items
    let itemsById: Map<string, SnapshotItem> | undefined
    for (let k = 0; k < itemLines.length; k++) {
      const id = itemLines[k]!.line_item.id
      const q = quote.lines[id]
      if (!q) continue
      let it: SnapshotItem | undefined = items[k]
      if (it?.id !== id) it = (itemsById ??= new Map(items.map((i) => [i.id, i]))).get(id)
      if (!it) continue
      const line = it.is_tax_inclusive
        ? this.inclusiveLine(dec(it.unit_price).times(it.quantity), it.quantity, it.discount, q, quote)
        : this.line(itemFigures(it) ?? { taxable: itemTaxable(it) }, q, quote)
      line.line_item_id = id
      out.push(line as ItemTaxLineDTO)
    }
    const ships = snapshot.shipping_methods
    let shipsById: Map<string, SnapshotShipping> | undefined
    for (let k = 0; k < shippingLines.length; k++) {
      const id = shippingLines[k]!.shipping_line.id
      const q = quote.lines[`${SHIPPING_ITEM_PREFIX}${id}`]
      if (!q) continue
      let sm: SnapshotShipping | undefined = ships[k]
      if (sm?.id !== id) sm = (shipsById ??= new Map(ships.map((m) => [m.id, m]))).get(id)
      if (!sm) continue
      const line = sm.is_tax_inclusive
        ? this.inclusiveLine(dec(sm.amount), "1", sm.discount, q, quote)
        : this.line(shippingFigures(sm), q, quote)
      line.shipping_line_id = id
      out.push(line as ShippingTaxLineDTO)
    }
    return out
  }

  /** A tax-inclusive line: the rate whose Medusa inclusive tax on the shown price is the service's tax on the net (inclusive.ts). */
  protected inclusiveLine(price: ReturnType<typeof dec>, quantity: string, discount: string, q: QuoteLine, quote: Quote): TaxLineOut {
    const solved = backSolveInclusiveRate({
      price,
      quantity,
      inclusiveDiscount: discount,
      amount: q.amount,
      displayRatePct: dec(q.rate).times(100).toNumber(),
    })
    if (!solved.exact) {
      this.logger.warn(
        `sales-tax: inclusive line tax ${q.amount} cannot be matched to the cent by a stored rate (price ${price.toString()})`,
      )
    }
    const line = this.lineOf(q, quote, solved.rate)
    line.data.tax_inclusive = true
    line.data.net = q.net ?? null
    line.data.inclusive_residual = q.residual ?? "0"
    return line
  }

  /** A tax-exclusive line: the rate whose Medusa tax on the taxable amount is the service's (back-solve.ts). */
  protected line(fig: { taxable: ReturnType<typeof dec>; taxableKey?: string }, q: QuoteLine, quote: Quote): TaxLineOut {
    const { taxable } = fig
    // the display rate only matters when nothing is taxable (any rate gives 0 tax)
    const solved = solvedRate(
      { taxable, amount: q.amount, displayRatePct: taxable.isZero() ? dec(q.rate).times(100).toNumber() : 0 },
      fig.taxableKey,
    )
    if (!solved.exact) {
      this.logger.warn(`sales-tax: line tax ${q.amount} cannot be matched to the cent by a stored rate (taxable ${taxable.toString()})`)
    }
    return this.lineOf(q, quote, solved.rate)
  }

  /** A tax line but its id: code, name, provider, data (amount, rate, TIC, hash, origin, exemption) and rate. */
  protected lineOf(q: QuoteLine, quote: Quote, rate: number): TaxLineOut {
    const exemptLine = !!quote.exemptionId && q.amount === 0
    const data: Record<string, unknown> = {
      amount: q.amount,
      service_rate: q.rate,
      tic: q.tic,
      cart_hash: quote.hash,
      exemption_id: quote.exemptionId,
    }
    // where the line shipped from, as quoted: filing files one service order per origin
    if (q.origin) {
      data.origin_location_id = q.origin.locationId
      data.origin = q.origin.address
    }
    // why the line is exempt: the certificate and the verified identity it was applied for
    if (quote.exemptionId) {
      data.exemption_basis = quote.exemptionBasis ?? null
      data.exempt_customer_id = quote.exemptCustomerId ?? null
    }
    return {
      code: exemptLine ? TAX_LINE_CODE_EXEMPT : TAX_LINE_CODE,
      name: exemptLine ? TAX_LINE_NAME_EXEMPT : TAX_LINE_NAME,
      provider_id: this.getIdentifier(),
      data,
      rate,
    }
  }

  /** The cart as the hook described it; rebuilt from the lines when the hook is absent. */
  protected snapshotFor(
    itemLines: ItemTaxCalculationLine[],
    shippingLines: ShippingTaxCalculationLine[],
    context: TaxCalculationContext,
  ): CartSnapshot {
    const raw = (context.additional_context as Record<string, unknown> | undefined)?.[CONTEXT_KEY]
    const parsed = raw === undefined ? undefined : parseCartSnapshot(raw)
    if (parsed?.success) {
      const snap = parsed.data
      // lines the hook did not see (a host calling the workflow with its own items): add them
      const known = new Set(snap.items.map((i) => i.id))
      for (const l of itemLines) if (!known.has(l.line_item.id)) snap.items.push(this.itemFromLine(l))
      const knownShip = new Set(snap.shipping_methods.map((s) => s.id))
      for (const l of shippingLines) {
        if (!knownShip.has(l.shipping_line.id))
          snap.shipping_methods.push({
            id: l.shipping_line.id,
            shipping_option_id: l.shipping_line.shipping_option_id,
            amount: String(l.shipping_line.unit_price ?? 0),
            discount: "0",
            is_tax_inclusive: false,
            has_tax_inclusive_discount: false,
          })
      }
      return snap
    }
    if (!this.#warnedNoHook) {
      this.#warnedNoHook = true
      this.logger.warn(
        `sales-tax: no cart context from the tax-line hooks${parsed && !parsed.success ? " (invalid)" : ""}: discounts are not seen, items and shipping are quoted separately, and tax-inclusive prices are quoted as tax-exclusive (Medusa does not tell a tax provider which prices include tax). See docs/provider.md (hook composition).`,
      )
    }
    const ids = [...itemLines.map((l) => l.line_item.id), ...shippingLines.map((l) => l.shipping_line.id)].sort()
    const shipping = (context.shipping_methods ?? []).map((m) => ({
      id: m.id,
      shipping_option_id: m.shipping_option_id,
      amount: String(m.amount ?? 0),
      discount: "0",
      is_tax_inclusive: false,
      has_tax_inclusive_discount: false,
    }))
    return {
      v: 1,
      cart_id: `lines_${cartHash({ ids }, "").slice(0, 40)}`,
      customer_id: context.customer?.id ?? null,
      currency_code: itemLines[0]?.line_item.currency_code ?? shippingLines[0]?.shipping_line.currency_code ?? "usd",
      items: itemLines.map((l) => this.itemFromLine(l)),
      shipping_methods: shipping,
      source: "lines",
    }
  }

  protected itemFromLine(l: ItemTaxCalculationLine): SnapshotItem {
    return {
      id: l.line_item.id,
      product_id: l.line_item.product_id,
      quantity: String(l.line_item.quantity ?? 0),
      unit_price: String(l.line_item.unit_price ?? 0),
      discount: "0",
      is_tax_inclusive: false,
      has_tax_inclusive_discount: false,
      tic: null,
    }
  }

  /**
   * Tax-inclusive prices are quoted (inclusive.ts); what stays refused is a promotion whose kind
   * differs from the price's: a tax-exclusive promotion on a tax-inclusive price, or a tax-inclusive
   * promotion on a tax-exclusive price (Medusa then takes the discount's tax out at the rate
   * being computed: no net can be quoted before the rate is known).
   */
  protected refuseTaxInclusive(s: CartSnapshot): void {
    const why = inclusiveMixRefusal(s)
    if (why) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, why, TAX_INCLUSIVE_ERROR_CODE)
  }

  /**
   * One quote per distinct cart state: (certificates →) cache → single-flight → breaker → POST
   * carts. `timeoutMs` bounds the whole quote, the certificate lookup included (the cart call gets
   * what is left as its deadline), and both service calls go through the circuit breaker. While the
   * breaker is open, cached answers (certificate list, quote of the same cart state) are still
   * served; only calls fail fast.
   */
  quote(snapshot: CartSnapshot, destination: Address, deadline = Date.now() + this.options.timeoutMs): Promise<Quote> {
    // the connection of the cart's sales channel: its certificates, its quote (cached under it), its breaker
    const conn = this.connectionFor(snapshot.sales_channel_id)
    const run: QuoteRun = { conn, breaker: this.breakerFor(conn.connectionId), deadline }
    // only a verified identity (set by the hook) may carry a certificate: see request-actor.ts
    const exemptFor = snapshot.exemption_customer_id?.startsWith("cus_") ? snapshot.exemption_customer_id : null
    if (!exemptFor) return this.quoteWith(snapshot, destination, null, null, run)
    return this.quoteExempt(snapshot, destination, exemptFor, run)
  }

  /** quote() for a verified customer: their certificate for the destination's state, if any, applied. */
  protected async quoteExempt(snapshot: CartSnapshot, destination: Address, exemptFor: string, run: QuoteRun): Promise<Quote> {
    const { conn, breaker, deadline } = run
    // a cached list makes no call; a lookup goes through the breaker within the quote's deadline
    const certs = await activeCertificates(conn.client, exemptFor, this.options.cacheTtlSeconds, {
      store: this.certificateStore,
      guard: <T>(fn: () => Promise<T>): Promise<T> => breaker.execute(() => withDeadline(fn, deadline - Date.now())),
      connectionId: conn.isDefault ? null : conn.connectionId,
    })
    const exemptionId = pickExemption(certs, destination.state, this.refusedNow())
    try {
      return await this.quoteWith(snapshot, destination, exemptionId, exemptFor, run)
    } catch (err) {
      if (!exemptionId || !refusesCertificate(err)) throw err
      // the service refused the certificate (disabled, wrong state, unknown): tax the cart
      // normally, never an outage; say so once per certificate and forget the cached list
      this.stats.refusedCertificates++
      const first = !this.#refused.has(exemptionId)
      this.#refused.set(exemptionId, Date.now() + Math.max(this.options.cacheTtlSeconds, 60) * 1000)
      if (first) {
        const why = isSalesTaxError(err) ? err.errors.map((e) => e.message).join("; ") : String(err)
        this.logger.warn(
          `sales-tax: the service refused exemption certificate ${exemptionId} of customer ${exemptFor} (${why}); the cart is taxed without it`,
        )
      }
      // forget the in-process list (a Caching Module entry expires with its TTL; the refused id is skipped meanwhile)
      await invalidateCustomerCertificates(exemptFor)
      return this.quoteWith(snapshot, destination, null, exemptFor, run)
    }
  }

  protected refusedNow(): Set<string> {
    const now = Date.now()
    for (const [id, until] of this.#refused) if (until <= now) this.#refused.delete(id)
    return new Set(this.#refused.keys())
  }

  protected async quoteWith(
    snapshot: CartSnapshot,
    destination: Address,
    exemptionId: string | null,
    exemptFor: string | null,
    run: QuoteRun,
    retries = 0,
  ): Promise<Quote> {
    const { conn } = run
    const carts = this.serviceCarts(snapshot, destination, exemptionId)
    const basis = exemptionId ? { exemptionBasis: snapshot.exemption_basis ?? null, exemptCustomerId: exemptFor } : null
    if (!carts.length) return { hash: "", exemptionId, ...basis, lines: {} }
    const inclusive = inclusiveLines(snapshot)
    let got: { value: Quote; hit: boolean }
    try {
      if (inclusive.length) return { ...(await this.quoteInclusive(carts, inclusive, destination, exemptionId, run)), ...basis }
      // the body's JSON is hashed (the cache key) and sent as it is: its carts are built valid
      // (buildServiceCart, checked against the contract in its tests), so the client does not
      // check them again (an invalid one would be the service's 422: the same failure, one call later)
      const request = cartsRequest(
        carts.map((c) => c.cart),
        conn.connectionId,
      )
      got = await this.cache.getOrLoad(request.hash, () =>
        run.breaker.execute(() => this.callService(carts, request.hash, exemptionId, conn.client, run.deadline, request)),
      )
    } catch (err) {
      // the service refused a stock location's address as an origin: that location falls back to
      // the `origin` option (reported once per location), and the cart is quoted again
      // (each retry falls back one more location at least, so this ends; bounded anyway)
      if (retries >= carts.length || !this.refuseOrigins(err, carts, snapshot)) throw err
      return this.quoteWith(snapshot, destination, exemptionId, exemptFor, run, retries + 1)
    }
    const { value, hit } = got
    if (hit) this.stats.cacheHits++
    // after the shopper's answer: the rate memory is best effort and never on the checkout path
    else if (!exemptionId) {
      // the known rates at once (in process, a few map writes): the cart's next state starts from them
      this.inclusiveHints.record(carts, value.lines, destination.zip, conn.connectionId)
      setImmediate(() => this.rememberAll(carts, value, destination))
    }
    // a quote is never changed once made (cached as it is): a copy only to add the exemption's basis
    return basis ? { ...value, ...basis } : value
  }

  /**
   * The service carts of a snapshot: one per origin (the stock location each line ships from; the
   * `origin` option for lines without a usable one), all sent in ONE POST carts (origins.ts). A
   * snapshot that names no stock location (a store without locations, or the lines' rebuild) is
   * one cart from the `origin` option.
   */
  protected serviceCarts(snapshot: CartSnapshot, destination: Address, exemptionId: string | null): { cart: CartIn; key: string }[] {
    const build = (part: CartSnapshot, origin: Address, serviceCartId?: string) =>
      buildServiceCart({
        snapshot: part,
        origin,
        destination,
        shippingTic: this.options.shippingTic,
        defaultTic: this.options.defaultTic,
        exemptionId,
        serviceCartId,
      })
    if (!snapshot.locations) {
      const cart = build(snapshot, this.options.origin)
      return cart.lineItems.length ? [{ cart, key: "" }] : []
    }
    type Line = { kind: "item"; id: string; loc?: string | null } | { kind: "shipping"; id: string; loc?: string | null }
    const lines: Line[] = [
      ...snapshot.items.map((i): Line => ({ kind: "item", id: i.id, loc: i.origin_location_id })),
      ...snapshot.shipping_methods.map((sm): Line => ({ kind: "shipping", id: sm.id, loc: sm.origin_location_id })),
    ]
    const refused = refusedLocations().size ? stillRefused(snapshot.locations) : new Set<string>()
    const groups = groupByOrigin(lines, (l) => l.loc, snapshot.locations, this.options.origin, snapshot.cart_id, refused)
    const carts: { cart: CartIn; key: string }[] = []
    for (const g of groups) {
      // one origin (the usual cart): every line, the snapshot as it is
      let part = snapshot
      if (groups.length > 1) {
        const items = new Set(g.lines.filter((l) => l.kind === "item").map((l) => l.id))
        const ships = new Set(g.lines.filter((l) => l.kind === "shipping").map((l) => l.id))
        part = {
          ...snapshot,
          items: snapshot.items.filter((i) => items.has(i.id)),
          shipping_methods: snapshot.shipping_methods.filter((sm) => ships.has(sm.id)),
        }
      }
      const cart = build(part, g.origin, g.serviceId)
      if (cart.lineItems.length) carts.push({ cart, key: g.key })
    }
    return carts
  }

  /**
   * A cart with tax-inclusive lines: `carts` (one per origin) carry their shown prices; the net each contains is
   * found by quoting (the shown price, the derived net, at most one re-quote: inclusive.ts), each
   * call through the breaker within the same deadline. Cached under the cart as first built (the
   * shown prices), so an unchanged cart makes no call.
   */
  protected async quoteInclusive(
    carts: { cart: CartIn; key: string }[],
    inclusive: ReturnType<typeof inclusiveLines>,
    destination: Address,
    exemptionId: string | null,
    run: QuoteRun,
  ): Promise<Quote> {
    const { conn } = run
    const basis = `${conn.connectionId}\0tax-inclusive`
    const hash = carts.length === 1 ? cartHash(carts[0]!.cart, basis) : cartHash({ carts: carts.map((c) => c.cart) }, basis)
    let lastCarts = carts
    let lastQuote: Quote | undefined
    const { value, hit } = await this.cache.getOrLoad(hash, async () => {
      // the rates already known for this ZIP and TIC: the first quote at the net they predict (one call)
      const start = exemptionId
        ? undefined
        : await this.inclusiveHints.start(carts, inclusive, destination.zip, conn.connectionId, () => this.rateMemory())
      const r = await resolveInclusive(
        inclusive,
        async (nets) => {
          lastCarts = carts.map((c) => ({ ...c, cart: withNets(c.cart, nets) }))
          const sent = lastCarts
          const request = cartsRequest(
            sent.map((c) => c.cart),
            conn.connectionId,
          )
          lastQuote = await run.breaker.execute(() => this.callService(sent, hash, exemptionId, conn.client, run.deadline, request))
          const out = new Map<string, LineAnswer>()
          for (const [id, l] of Object.entries(lastQuote.lines)) out.set(id, { amount: l.amount, rate: l.rate })
          return out
        },
        start,
      )
      const lines: Quote["lines"] = { ...lastQuote!.lines }
      for (const [id, s] of r.splits) {
        lines[id] = { ...lines[id], amount: s.amount, rate: s.rate, net: s.net, residual: s.residual }
      }
      return { hash, exemptionId, lines, inclusiveCalls: r.calls }
    })
    if (hit) this.stats.cacheHits++
    else if (!exemptionId && lastQuote) {
      const remembered = lastQuote
      const sent = lastCarts
      this.inclusiveHints.record(carts, value.lines, destination.zip, conn.connectionId)
      setImmediate(() => this.rememberAll(sent, remembered, destination))
    }
    return value
  }

  /**
   * Marks the stock locations whose address the service refused as an origin (422 located at
   * `body.items[k].origin`), each logged once; true when at least one location was newly marked
   * (the fallback origin's own refusal is not: it is the shopper's error path as before).
   */
  protected refuseOrigins(err: unknown, carts: { cart: CartIn; key: string }[], snapshot: CartSnapshot): boolean {
    if (!isSalesTaxError(err) || isOutage(err)) return false
    let marked = false
    for (const e of err.errors) {
      const m = /^body\.items\[(\d+)\]\.origin(\.|$)/.exec(e.location)
      const c = m ? carts[Number(m[1])] : undefined
      if (!c || !c.key || refusedLocations().has(c.key)) continue
      const name = snapshot.locations?.[c.key]?.name ?? null
      refusedLocations().set(c.key, {
        locationId: c.key,
        name,
        address: c.cart.origin,
        reason: `${e.location.replace(/^body\.items\[\d+\]\./, "")}: ${e.message}`,
        at: new Date().toISOString(),
      })
      // the other instances' settings pages see it through the Caching Module, when there is one
      void shareRefusal(tryResolve<RefusalCache>(this.#cradle, "caching"), refusedLocations().get(c.key)!)
      this.stats.refusedOrigins++
      this.logger.warn(
        `sales-tax: the service refused the address of stock location ${c.key}${name ? ` (${name})` : ""} as an origin (${e.message}); its lines use the \`origin\` option until the address is fixed (Settings → Sales Tax → Ship-from locations)`,
      )
      marked = true
    }
    return marked
  }

  /**
   * Records the effective rate per TIC of a successful, non-exempt quote (best effort, never
   * awaited by the shopper). A line whose rate this process wrote already (and which that rate
   * explains to the cent, within the hour: WrittenRates) is not written again.
   */
  protected rememberAll(carts: { cart: CartIn }[], q: Quote, destination: Address): void {
    for (const c of carts) void this.remember(c.cart, q, destination)
  }

  protected async remember(cart: CartIn, q: Quote, destination: Address): Promise<void> {
    const rows: KnownRate[] = []
    const at = Date.now()
    const zip = zipKey(destination.zip)
    for (const li of cart.lineItems) {
      const got = q.lines[li.itemId]
      if (!got || (got.tic === null && li.tic === undefined)) continue
      const tic = got.tic ?? li.tic!
      if (this.writtenRates.unchanged(zip, tic, li.price * li.quantity, got.amount, at)) continue
      const rate =
        this.writtenRates.narrowed(zip, tic, li.price * li.quantity, got.amount, got.rate) ??
        lineRatePct(li.price, li.quantity, got.amount, got.rate)
      if (rate === null) continue
      rows.push({ zip, tic, rate, quotedAt: new Date(at) })
    }
    if (!rows.length) return
    // one row per TIC: the last line wins (same TIC, same ZIP: the same rate up to rounding)
    const byTic = [...new Map(rows.map((r) => [r.tic, r])).values()]
    try {
      await this.rateMemory().rememberRates(byTic)
      this.writtenRates.written(byTic, at)
    } catch (e) {
      this.logger.debug?.(`sales-tax: last-known rates not recorded (${(e as Error)?.message ?? e})`)
    }
  }

  protected async callService(
    carts: { cart: CartIn; key: string }[],
    hash: string,
    exemptionId: string | null,
    client: SalesTaxClient,
    deadline: number,
    /** the body and its JSON (cartsRequest): sent prepared */
    request: { body: CalculateCartsRequest; json: string },
  ): Promise<Quote> {
    this.stats.serviceCalls++
    const res = await client.calculateCarts(request.body, { deadline, prepared: request })
    markServiceOk()
    if (this.#keyRefused.size) this.#keyRefused.delete(client.settings.connectionId)
    const lines: Quote["lines"] = {}
    carts.forEach(({ cart, key }, k) => {
      const out: CartOut | undefined = res.items.find((x) => x.cartId === cart.cartId) ?? res.items[k]
      const origin = { locationId: key || null, address: cart.origin }
      for (const li of out?.lineItems ?? []) lines[li.itemId] = { amount: li.tax.amount, rate: li.tax.rate, tic: li.tic, origin }
    })
    return { hash, exemptionId, lines }
  }

  protected async onFailure(
    err: unknown,
    snapshot: CartSnapshot,
    destination: Address,
    itemLines: ItemTaxCalculationLine[],
    shippingLines: ShippingTaxCalculationLine[],
  ): Promise<TaxLine[]> {
    if (!isOutage(err) && isSalesTaxError(err)) {
      const located = err.errors.filter((e) => /destination/.test(e.location))
      if (located.length) {
        // the service refused the address: a shopper error, whatever the policy
        throw new MedusaError(
          MedusaError.Types.INVALID_DATA,
          `The shipping address could not be used for sales tax: ${located.map((e) => `${e.location.replace(/^body\.items\[0\]\.destination\.?/, "") || "address"} ${e.message}`).join("; ")}`,
        )
      }
    }
    const why = err instanceof BrokenCircuitError ? "circuit open" : err instanceof Error ? err.message : String(err)
    if (isOutage(err)) markOutage()
    // a refused API key (401/403, or the circuit it opened): the failure policy as for an outage,
    // but ONE error a minute per connection that names the problem, instead of a warning per request
    const connectionId = this.connectionFor(snapshot.sales_channel_id).connectionId
    if (isKeyRefused(err)) this.#keyRefused.add(connectionId)
    const keyRefused = isKeyRefused(err) || (err instanceof BrokenCircuitError && this.#keyRefused.has(connectionId))
    if (keyRefused && this.#keyRefusedLog.take(connectionId)) {
      const status = isSalesTaxError(err) ? `${err.status} ${err.title}` : "circuit open after refusals"
      this.logger.error(
        `sales-tax: the service refused the API key for connection ${connectionId} (${status}); checkout follows failurePolicy "${this.options.failurePolicy}" until the key is fixed (check the connection's apiKey; logged once a minute)`,
      )
    }
    const block = (detail: string): never => {
      if (!keyRefused) this.logger.warn(`sales-tax: service unavailable (${why}); ${detail}`)
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, BLOCK_ERROR_MESSAGE, BLOCK_ERROR_CODE)
    }
    if (this.options.failurePolicy === "block") return block(`failurePolicy "block" refuses the cart update`)

    // fallback, in order (fallbackRatesFor): the last-known rate of the ZIP and TIC above 0 % (the
    // highest in 30 days) → fallbackRates[state] / fallbackRate → the region's own rates → a
    // learned 0 % → nothing: refuse as "block" (never a silent 0 %)
    const zip = zipKey(destination.zip)
    const ticOf = new Map<string, number>(snapshot.items.map((i) => [i.id, i.tic ?? this.options.defaultTic]))
    const tics = [
      ...new Set([
        ...itemLines.map((l) => ticOf.get(l.line_item.id) ?? this.options.defaultTic),
        ...(shippingLines.length ? [this.options.shippingTic] : []),
      ]),
    ]
    let known = new Map<number, KnownRate>()
    try {
      const now = new Date()
      known = freshestByTic(await this.rateMemory().knownRates(zip, tics, new Date(now.getTime() - LAST_KNOWN_MAX_AGE_MS)), now)
    } catch (e) {
      this.logger.warn(`sales-tax: last-known rates could not be read (${(e as Error)?.message ?? e})`)
    }
    const configured = this.options.fallbackRates?.[destination.state.toUpperCase()] ?? this.options.fallbackRate
    type Rate = { rate: number; code: string; name: string; source: string }
    const pick = (tic: number, rates: { rate?: number | null; code?: string | null; name?: string }[]): Rate[] | null =>
      fallbackRatesFor(known.get(tic)?.rate, configured, rates)?.map((r) => ({
        rate: r.rate,
        code: TAX_LINE_CODE_FALLBACK,
        name: r.label ? `${TAX_LINE_NAME_FALLBACK}: ${r.label}` : TAX_LINE_NAME_FALLBACK,
        source: r.source,
      })) ?? null
    const out: TaxLine[] = []
    const missing: string[] = []
    const line = (r: Rate) => ({
      rate: r.rate,
      code: r.code,
      name: r.name,
      provider_id: this.getIdentifier(),
      data: { fallback: true, fallback_source: r.source, reason: why.slice(0, 200) },
    })
    for (const l of itemLines) {
      const rates = pick(ticOf.get(l.line_item.id) ?? this.options.defaultTic, l.rates)
      if (!rates) missing.push(l.line_item.id)
      else out.push(...rates.map((r) => ({ ...line(r), line_item_id: l.line_item.id })))
    }
    for (const l of shippingLines) {
      const rates = pick(this.options.shippingTic, l.rates)
      if (!rates) missing.push(l.shipping_line.id)
      else out.push(...rates.map((r) => ({ ...line(r), shipping_line_id: l.shipping_line.id })))
    }
    if (missing.length) {
      return block(
        `failurePolicy "fallback" has no rate for ZIP ${zip} (no last-known rate, no fallbackRates.${destination.state.toUpperCase()} / fallbackRate, no region rate): the cart update is refused`,
      )
    }
    this.stats.fallbacks++
    if (!keyRefused)
      this.logger.warn(`sales-tax: service unavailable (${why}); using fallback rates, the order will be filed with the tax charged`)
    return out
  }
}

export { certificateCache }
export default SalesTaxProviderService
