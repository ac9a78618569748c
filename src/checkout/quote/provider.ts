/**
 * The Medusa tax module provider: one quote per cart state, (certificates →) cache → single-flight → breaker → POST
 * carts, `timeoutMs` bounding the whole quote; cached answers are served while the breaker is open. A checkout client
 * and a circuit breaker per connection: one account's outage fails only its own channels' calls fast. Exemption at
 * checkout: a verified customer's certificate for the destination's state, applied to the quote. After a live,
 * non-exempt quote: the effective rate per ZIP and TIC, remembered for the outage path (best effort, never awaited).
 */
import type {
  ItemTaxCalculationLine,
  ITaxProvider,
  Logger,
  ShippingTaxCalculationLine,
  TaxCalculationContext,
} from "@medusajs/framework/types"
import type { Address, CalculateCartsRequest, CartIn, CertificateRecord } from "../../../packages/contract/src/index"
import { dec } from "../../../packages/contract/src/money"
import { isSalesTaxError, refusesCertificate, type SalesTaxClient } from "../../service/client"
import { getSalesTaxClient } from "../../service/client-factory"
import { connectionForChannel, optionsOn } from "../../service/connections"
import { resolvePluginOptions, type PluginOptions } from "../../options"
import { SALES_TAX_PROVIDER_IDENTIFIER } from "../../constants"
import { cartsRequest } from "../../service/cart/build-service-cart"
import type { CartSnapshot } from "../../service/cart/context"
import { inclusiveLines, inclusiveQuoteHash, quoteInclusive, refuseTaxInclusiveMix } from "../inclusive/inclusive"
import { InclusiveHints } from "../inclusive/inclusive-hints"
import {
  InMemoryRateMemory,
  lineRateToRemember,
  registeredRateMemory,
  WrittenRates,
  zipKey,
  type KnownRate,
  type RateMemory,
} from "../../service/last-known-rates"
import { refusedLocations, shareRefusal, type RefusalCache } from "../../service/origins/origins"
import {
  activeCertificates,
  certificateStoreOn,
  invalidateCustomerCertificates,
  pickExemption,
  registerCertificateConnections,
} from "../exemptions/exemptions"
import { plannedDestination, quoteDestination, stampDestination } from "../../service/address/destination"
import { servesRequests } from "../../core/serving"
import { fromCradle, memoSet, runtimeSlot } from "../../runtime"
import { medusaStore, MemoryStore, QuoteCache, type CacheModuleLike, type CachingModuleLike, type QuoteStore } from "./result-cache"
import { withDeadline } from "../../service/deadline"
import { defaultRegionStates } from "../../medusa/tax-rate-service"
import { coverageWarning, fallbackGaps, FailurePolicy } from "./failure-policy"
import { CircuitBreaker, countsForBreaker, isOutage, markOutage, markServiceOk, quoteHealth } from "./health"
import {
  newProviderStats,
  type ProviderStats,
  type Quote,
  type QuoteConnection,
  type QuoteLogger,
  type QuoteRun,
  type ServiceCart,
  type TaxLine,
} from "./quote-types"
import { originRefusals, quoteOfAnswer, serviceCarts } from "./service-carts"
import { contextWithLinesSnapshot, noHookWarning, snapshotFor, type NoHook } from "./snapshot"
import { taxLineContextFallbackOn } from "../../medusa/tax-line-context-fallback"
import { snapshotOfLines } from "../hooks/tax-line-context-handler"
import { taxLines, type TaxLineDeps } from "./tax-lines"

/** Pure of the clock (given `now`): certificates the service refused, not offered again until their time passes. */
export class RefusedCertificates {
  readonly #until = new Map<string, number>()

  /** Refuses `id` for max(ttlSeconds, 60) s from `now`; true when it was not refused before (say so once). */
  refuse(id: string, ttlSeconds: number, now: number = Date.now()): boolean {
    const first = !this.#until.has(id)
    this.#until.set(id, now + Math.max(ttlSeconds, 60) * 1000)
    return first
  }

  /** The certificates still refused at `now` (the others are forgotten). */
  at(now: number = Date.now()): Set<string> {
    for (const [id, until] of this.#until) if (until <= now) this.#until.delete(id)
    return new Set(this.#until.keys())
  }
}

/** Only a verified identity (set by the hook) may carry a certificate: see request-actor.ts. */
export function exemptCustomer(snapshot: { exemption_customer_id?: string | null }): string | null {
  return snapshot.exemption_customer_id?.startsWith("cus_") ? snapshot.exemption_customer_id : null
}

/** lineRateToRemember, memoized (the same lines come back across carts). */
const ratePctMemo = runtimeSlot("lineRatePcts", () => new Map<string, string | null>())
function lineRatePct(price: number, quantity: number, amount: number, serviceRate: number): string | null {
  const key = `${price}|${quantity}|${amount}|${serviceRate}`
  const memo = ratePctMemo()
  const got = memo.get(key)
  return got !== undefined ? got : memoSet(memo, key, lineRateToRemember(dec(price).times(quantity), amount, serviceRate))
}

/** The rows to remember of one service cart's answer: one per TIC (the last line wins), less the lines `written` says are unchanged. */
export function ratesToRemember(cart: CartIn, q: Pick<Quote, "lines">, zip: string, at: number, written: WrittenRates): KnownRate[] {
  const rows: KnownRate[] = []
  for (const li of cart.lineItems) {
    const got = q.lines[li.itemId]
    if (!got || (got.tic === null && li.tic === undefined)) continue
    const tic = got.tic ?? li.tic!
    if (written.unchanged(zip, tic, li.price * li.quantity, got.amount, at)) continue
    const rate =
      written.narrowed(zip, tic, li.price * li.quantity, got.amount, got.rate) ?? lineRatePct(li.price, li.quantity, got.amount, got.rate)
    if (rate === null) continue
    rows.push({ zip, tic, rate, quotedAt: new Date(at) })
  }
  return [...new Map(rows.map((r) => [r.tic, r])).values()]
}

/** Medusa calls getTaxLines twice per recalculation (items, then shipping): one POST carts serves both. */
export class SalesTaxProviderService implements ITaxProvider {
  static identifier = SALES_TAX_PROVIDER_IDENTIFIER

  /** Called by Medusa's provider loader at boot: bad options stop the app with a clear message. */
  static validateOptions(options: Record<string, unknown>): void {
    resolvePluginOptions(options)
  }

  readonly options: PluginOptions
  readonly client: SalesTaxClient
  readonly cache: QuoteCache<Quote>
  /** the default connection's circuit breaker */
  readonly breaker: CircuitBreaker
  readonly stats: ProviderStats = newProviderStats()
  protected readonly logger: QuoteLogger
  readonly certificateStore: QuoteStore<CertificateRecord[]>
  readonly inclusiveHints = new InclusiveHints()
  readonly refusedCertificates = new RefusedCertificates()
  readonly bootCheck: Promise<string | null>
  /** Rates this provider wrote, so an unchanged one is not written again; public so a test that restores the database can forget them. */
  readonly writtenRates = new WrittenRates()
  readonly #cradle: Record<string, unknown>
  readonly #clients = new Map<string, SalesTaxClient>()
  /** by sales channel ("" for none): options do not change after boot */
  readonly #connectionOf = new Map<string, QuoteConnection>()
  readonly #breakers = new Map<string, CircuitBreaker>()
  #warnedNoRateMemory = false
  #localRates: InMemoryRateMemory | undefined
  readonly #failure: FailurePolicy
  readonly #lineDeps: TaxLineDeps
  #warnedNoHook = false
  readonly #onNoHook = (why: NoHook): void => {
    if (this.#warnedNoHook) return
    this.#warnedNoHook = true
    this.logger.warn(noHookWarning(why))
  }

  constructor(cradle: Record<string, unknown>, options: Record<string, unknown>) {
    this.options = resolvePluginOptions(options)
    this.logger = (fromCradle(cradle, "logger") as Logger | undefined) ?? console
    this.#cradle = cradle
    // the default connection's client: the probe; carts of channels without a connection of their own
    this.client = this.clientOn(this.options)
    this.#clients.set(this.options.connectionId, this.client)
    registerCertificateConnections(this.options.connections.map((c) => c.connectionId))
    // Medusa's Caching Module when the Tax Module reaches it, else the deprecated Cache Module, else in process
    const caching = fromCradle(cradle, "caching") as CachingModuleLike | undefined
    const cache = fromCradle(cradle, "cache") as CacheModuleLike | undefined
    this.cache = new QuoteCache<Quote>(medusaStore(caching, cache) ?? new MemoryStore<Quote>(), this.options.cacheTtlSeconds)
    this.certificateStore = certificateStoreOn(caching)
    this.breaker = this.breakerFor(this.options.connectionId)
    const providerId = this.getIdentifier()
    this.#failure = new FailurePolicy({
      options: this.options,
      logger: this.logger,
      stats: this.stats,
      providerId,
      rateMemory: () => this.rateMemory(),
    })
    this.#lineDeps = { providerId, warn: (m) => this.logger.warn(m) }
    Object.assign(quoteHealth(), { policy: this.options.failurePolicy, probe: () => this.probe() })
    // logged by the process that serves requests only, not by every CLI command (src/core/serving.ts)
    this.bootCheck = servesRequests()
      ? new Promise<string | null>((resolve) => setImmediate(() => this.checkFallbackCoverage().then(resolve, () => resolve(null))))
      : Promise.resolve(null)
  }

  /** The boot warning of fallback coverage, in the process that serves requests only; callable again. */
  async checkFallbackCoverage(): Promise<string | null> {
    if (this.options.failurePolicy !== "fallback") return null
    const regionStates = await defaultRegionStates(this.#cradle)
    const msg = coverageWarning(fallbackGaps(this.options, regionStates), !!regionStates)
    if (msg) this.logger.warn(msg)
    return msg
  }

  /** Is POST carts answering now? One tiny fixed cart through the breaker (asked under "block" during an outage). */
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

  /** A checkout-path client on a connection: the whole call, retries included, within timeoutMs. */
  protected clientOn(o: Pick<PluginOptions, "connectionId" | "apiKey">): SalesTaxClient {
    return getSalesTaxClient(optionsOn(this.options, o), {
      retry: { maxAttempts: 2, baseDelayMs: 50, maxDelayMs: 200, maxElapsedMs: this.options.timeoutMs },
    })
  }

  /** The connection of a cart's sales channel and its client (option `connections`; else the default). */
  protected connectionFor(salesChannelId: string | null | undefined): QuoteConnection {
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

  /** A circuit breaker per connection: one account's outage fails only its own channels' calls fast. */
  breakerFor(connectionId: string): CircuitBreaker {
    let b = this.#breakers.get(connectionId)
    if (!b) {
      // options.circuitBreaker is exactly { failures, halfOpenAfterMs } (zod strips other keys)
      b = new CircuitBreaker({ ...this.options.circuitBreaker, isFailure: countsForBreaker })
      this.#breakers.set(connectionId, b)
    }
    return b
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

  /** Records the effective rate per TIC of one cart of a successful, non-exempt quote (not awaited). */
  protected async remember(cart: CartIn, q: Quote, destination: Address): Promise<void> {
    const at = Date.now()
    const byTic = ratesToRemember(cart, q, zipKey(destination.zip), at, this.writtenRates)
    if (!byTic.length) return
    try {
      await this.rateMemory().rememberRates(byTic)
      this.writtenRates.written(byTic, at)
    } catch (e) {
      this.logger.debug?.(`sales-tax: last-known rates not recorded (${(e as Error)?.message ?? e})`)
    }
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
    // one bound for the verify-address and quote calls
    const deadline = started + this.options.timeoutMs
    const currency = itemLines[0]?.line_item.currency_code ?? shippingLines[0]?.shipping_line.currency_code
    // a typed address needs no service call: decided synchronously (no await on the miss path)
    const dest =
      plannedDestination(context.address, currency) ??
      (await quoteDestination(context.address, currency, { options: this.options, client: () => this.client, deadline }))
    if (!dest.address) {
      // nothing the service can quote: zero tax (a US cart left so is refused at completion)
      this.stats.skippedNoAddress++
      if (dest.reason === "unavailable")
        this.logger.warn(`sales-tax: the destination could not be verified (${dest.detail}); the cart is untaxed for now`)
      return []
    }
    // a Medusa without the tax-line context hooks: the provider reads the lines' cart or order itself (and its gift cards)
    const { context: ctx, itemLines: lines } = taxLineContextFallbackOn()
      ? await contextWithLinesSnapshot(itemLines, shippingLines, context, snapshotOfLines, (m) => this.logger.warn(m))
      : { context, itemLines }
    if (!lines.length && !shippingLines.length) return []
    const snapshot = snapshotFor(lines, shippingLines, ctx, this.#onNoHook)
    refuseTaxInclusiveMix(snapshot)

    let quote: Quote
    try {
      quote = await this.quote(snapshot, dest.address, deadline)
    } catch (err) {
      const { connectionId } = this.connectionFor(snapshot.sales_channel_id)
      return stampDestination(
        await this.#failure.onFailure(err, connectionId, snapshot, dest.address, lines, shippingLines),
        dest.destination,
      )
    } finally {
      this.stats.slowestQuoteMs = Math.max(this.stats.slowestQuoteMs, Date.now() - started)
    }
    return stampDestination(taxLines(snapshot, lines, shippingLines, quote, this.#lineDeps), dest.destination)
  }

  /** One quote per distinct cart state, on the connection of the cart's sales channel (its certificates, cache key and breaker), by `deadline`. */
  quote(snapshot: CartSnapshot, destination: Address, deadline = Date.now() + this.options.timeoutMs): Promise<Quote> {
    const conn = this.connectionFor(snapshot.sales_channel_id)
    const run: QuoteRun = { conn, breaker: this.breakerFor(conn.connectionId), deadline }
    const exemptFor = exemptCustomer(snapshot)
    if (!exemptFor) return this.quoteWith(snapshot, destination, null, null, run)
    return this.quoteExempt(snapshot, destination, exemptFor, run)
  }

  /** The quote of a verified customer's cart with their certificate for the destination's state, if any (looked up within the deadline). */
  protected async quoteExempt(snapshot: CartSnapshot, destination: Address, exemptFor: string, run: QuoteRun): Promise<Quote> {
    const { conn, breaker, deadline } = run
    const certs = await activeCertificates(conn, exemptFor, this.options, {
      store: this.certificateStore,
      guard: <T>(fn: () => Promise<T>): Promise<T> => breaker.execute(() => withDeadline(fn, deadline - Date.now())),
    })
    const refused = this.refusedCertificates.at()
    const exemptionId = pickExemption(certs, destination.state, refused, { cartId: snapshot.cart_id, now: Date.now() })
    try {
      return await this.quoteWith(snapshot, destination, exemptionId, exemptFor, run)
    } catch (err) {
      if (!exemptionId || !refusesCertificate(err)) throw err
      // the service refused the certificate (disabled, wrong state, unknown): tax the cart, never an outage
      this.stats.refusedCertificates++
      if (this.refusedCertificates.refuse(exemptionId, this.options.cacheTtlSeconds)) {
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

  /** The quote of the cart with `exemptionId` (or none): cached per cart state; an origin the service refuses is retried without. */
  protected async quoteWith(
    snapshot: CartSnapshot,
    destination: Address,
    exemptionId: string | null,
    exemptFor: string | null,
    run: QuoteRun,
    retries = 0,
  ): Promise<Quote> {
    const { connectionId } = run.conn
    const carts = serviceCarts(snapshot, destination, exemptionId, this.options)
    const basis = exemptionId ? { exemptionBasis: snapshot.exemption_basis ?? null, exemptCustomerId: exemptFor } : null
    if (!carts.length) return { hash: "", exemptionId, ...basis, lines: {} }
    const inclusive = inclusiveLines(snapshot)
    // the last call's carts and answer (a tax-inclusive quote's last nets): the rates to remember
    let last: { sent: readonly ServiceCart[]; quote: Quote } | undefined
    const requestOf = (sent: readonly ServiceCart[]) =>
      cartsRequest(
        sent.map((c) => c.cart),
        connectionId,
      )
    const call = async (sent: readonly ServiceCart[], hash: string, request = requestOf(sent)) =>
      (last = { sent, quote: await this.send(run, sent, hash, exemptionId, request) }).quote
    let got: { value: Quote; hit: boolean }
    try {
      if (inclusive.length) {
        // cached under the carts as first built (the shown prices): an unchanged cart makes no call
        const hash = inclusiveQuoteHash(carts, connectionId)
        got = await this.cache.getOrLoad(hash, async () => {
          // the rates already known for this ZIP and TIC: the first quote at the net they predict (one call)
          const start = exemptionId
            ? undefined
            : await this.inclusiveHints.start(carts, inclusive, destination.zip, connectionId, () => this.rateMemory())
          return quoteInclusive(carts, inclusive, start, (sent) => call(sent, hash), hash, exemptionId)
        })
      } else {
        // sent as hashed: buildServiceCart's carts are valid by construction, so the client does not check them again
        const request = requestOf(carts)
        got = await this.cache.getOrLoad(request.hash, () => call(carts, request.hash, request))
      }
    } catch (err) {
      // a refused origin falls back to the `origin` option, quoted again (each retry drops one more location)
      if (retries >= carts.length || !this.refuseOrigins(err, carts, snapshot)) throw err
      return this.quoteWith(snapshot, destination, exemptionId, exemptFor, run, retries + 1)
    }
    const { value, hit } = got
    if (hit) this.stats.cacheHits++
    // after the shopper's answer: the rate memory is best effort and never on the checkout path
    else if (!exemptionId && last) {
      const { sent, quote } = last
      // the known rates at once (in process, a few map writes): the cart's next state starts from them
      this.inclusiveHints.record(carts, value.lines, destination.zip, connectionId)
      setImmediate(() => {
        for (const c of sent) void this.remember(c.cart, quote, destination)
      })
    }
    // a quote is never changed once made (cached as it is): a copy only to add the exemption's basis
    return basis ? { ...value, ...basis } : value
  }

  /** One POST carts of `sent` (its body prepared) through the run's breaker, by its deadline. */
  protected send(
    run: QuoteRun,
    sent: readonly ServiceCart[],
    hash: string,
    exemptionId: string | null,
    request: { body: CalculateCartsRequest; json: string },
  ): Promise<Quote> {
    return run.breaker.execute(async () => {
      this.stats.serviceCalls++
      const res = await run.conn.client.calculateCarts(request.body, { deadline: run.deadline, prepared: request })
      markServiceOk()
      this.#failure.answered(run.conn.client)
      return quoteOfAnswer(sent, res, hash, exemptionId)
    })
  }

  /** Marks the stock locations the service refused as an origin, each logged once and shared; true when one was new. */
  protected refuseOrigins(err: unknown, carts: ServiceCart[], snapshot: CartSnapshot): boolean {
    const found = originRefusals(err, carts, snapshot, refusedLocations(), new Date())
    for (const { refusal: r, message } of found) {
      refusedLocations().set(r.locationId, r)
      void shareRefusal(fromCradle(this.#cradle, "caching") as RefusalCache | undefined, r)
      this.stats.refusedOrigins++
      this.logger.warn(
        `sales-tax: the service refused the address of stock location ${r.locationId}${r.name ? ` (${r.name})` : ""} as an origin (${message}); its lines use the \`origin\` option until the address is fixed (Settings → Sales Tax → Ship-from locations)`,
      )
    }
    return found.length > 0
  }
}

export default SalesTaxProviderService
