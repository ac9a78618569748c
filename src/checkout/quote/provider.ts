/**
 * The Medusa tax module provider: one quote per cart state, (certificates →) cache → single-flight → breaker → POST
 * carts, `timeoutMs` bounding the whole quote; cached answers are served while the breaker is open.
 */
import type {
  ItemTaxCalculationLine,
  ITaxProvider,
  Logger,
  ShippingTaxCalculationLine,
  TaxCalculationContext,
} from "@medusajs/framework/types"
import type { Address, CalculateCartsRequest, CartIn, CertificateRecord } from "../../../packages/contract/src/index"
import type { SalesTaxClient } from "../../service/client"
import { resolvePluginOptions, type PluginOptions } from "../../options"
import { SALES_TAX_PROVIDER_IDENTIFIER } from "../../constants"
import { cartsRequest } from "../../service/cart/build-service-cart"
import type { CartSnapshot } from "../../service/cart/context"
import { inclusiveLines, inclusiveQuoteHash, quoteInclusive, refuseTaxInclusiveMix } from "../inclusive/inclusive-cart"
import { InclusiveHints } from "../inclusive/inclusive-hints"
import type { RateMemory, WrittenRates } from "../../service/last-known-rates"
import { refusedLocations, shareRefusal, type RefusalCache } from "../../service/origins/origins"
import { certificateStoreOn, registerCertificateConnections } from "../exemptions/exemptions"
import { plannedDestination, quoteDestination, stampDestination } from "../../service/address/destination"
import { servesRequests } from "../../core/serving"
import { fromCradle } from "../../runtime"
import { medusaStore, MemoryStore, QuoteCache, type CacheModuleLike, type CachingModuleLike, type QuoteStore } from "./result-cache"
import { withDeadline } from "../../service/deadline"
import { exemptCustomer, quoteExempt, RefusedCertificates } from "./exempt-quote"
import { defaultRegionStates } from "../../medusa/tax-rate-service"
import { coverageWarning, fallbackGaps, FailurePolicy } from "./failure-policy"
import { isOutage, markOutage, markServiceOk, quoteHealth, type CircuitBreaker } from "./health"
import { QuoteConnections } from "./quote-connections"
import { newProviderStats, type ProviderStats, type Quote, type QuoteRun, type ServiceCart, type TaxLine } from "./quote-types"
import { RateRecorder } from "./rate-recorder"
import { originRefusals, quoteOfAnswer, serviceCarts } from "./service-carts"
import { contextWithLinesSnapshot, noHookWarning, snapshotFor, type NoHook } from "./snapshot"
import { taxLineContextFallbackOn } from "../../medusa/tax-line-context-fallback"
import { snapshotOfLines } from "../hooks/tax-line-context-handler"
import { taxLines, type TaxLineDeps } from "./tax-lines"

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
  protected readonly logger: Pick<Logger, "info" | "warn" | "error" | "debug">
  readonly certificateStore: QuoteStore<CertificateRecord[]>
  readonly inclusiveHints = new InclusiveHints()
  readonly refusedCertificates = new RefusedCertificates()
  readonly bootCheck: Promise<string | null>
  readonly #cradle: Record<string, unknown>
  readonly #connections: QuoteConnections
  readonly #rates: RateRecorder
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
    this.#connections = new QuoteConnections(this.options)
    this.client = this.#connections.client
    registerCertificateConnections(this.options.connections.map((c) => c.connectionId))
    // Medusa's Caching Module when the Tax Module reaches it, else the deprecated Cache Module, else in process
    const caching = fromCradle(cradle, "caching") as CachingModuleLike | undefined
    const cache = fromCradle(cradle, "cache") as CacheModuleLike | undefined
    this.cache = new QuoteCache<Quote>(medusaStore(caching, cache) ?? new MemoryStore<Quote>(), this.options.cacheTtlSeconds)
    this.certificateStore = certificateStoreOn(caching)
    this.breaker = this.breakerFor(this.options.connectionId)
    this.#rates = new RateRecorder(this.logger)
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

  /** Rates this provider wrote, so an unchanged one is not written again; public so a test that restores the database can forget them. */
  get writtenRates(): WrittenRates {
    return this.#rates.writtenRates
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

  breakerFor(connectionId: string): CircuitBreaker {
    return this.#connections.breakerFor(connectionId)
  }

  protected rateMemory(): RateMemory {
    return this.#rates.rateMemory()
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
      const { connectionId } = this.#connections.connectionFor(snapshot.sales_channel_id)
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
    const conn = this.#connections.connectionFor(snapshot.sales_channel_id)
    const run: QuoteRun = { conn, breaker: this.breakerFor(conn.connectionId), deadline }
    const exemptFor = exemptCustomer(snapshot)
    if (!exemptFor) return this.quoteWith(snapshot, destination, null, null, run)
    const deps = {
      options: this.options,
      logger: this.logger,
      stats: this.stats,
      certificateStore: this.certificateStore,
      refused: this.refusedCertificates,
    }
    const quoteWith = (exemptionId: string | null) => this.quoteWith(snapshot, destination, exemptionId, exemptFor, run)
    return quoteExempt(deps, destination, exemptFor, run, quoteWith, snapshot.cart_id)
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
      setImmediate(() => this.#rates.rememberAll(sent, quote, destination))
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
