/**
 * The Medusa tax module provider: Medusa's provider interface over the quote pipeline. The stages
 * live beside it: snapshot.ts (the cart as the hook described it), service-carts.ts (snapshot →
 * service carts, one per origin), quote-pipeline.ts (cache, single-flight, breaker, the one
 * deadline; exempt-quote.ts, inclusive-quote.ts), failure-policy.ts (outage →
 * block or fallback), tax-lines.ts (the service's answer → Medusa tax lines).
 */
import type {
  ItemTaxCalculationLine,
  ITaxProvider,
  Logger,
  ShippingTaxCalculationLine,
  TaxCalculationContext,
} from "@medusajs/framework/types"
import type { Address, CartIn, CertificateRecord } from "../../service/contract"
import type { SalesTaxClient } from "../../service/client"
import { resolvePluginOptions, type PluginOptions } from "../../options"
import { SALES_TAX_PROVIDER_IDENTIFIER } from "../../constants"
import type { CartSnapshot } from "../../service/cart/context"
import { InclusiveHints } from "../inclusive/inclusive-hints"
import type { RateMemory, WrittenRates } from "../../modules/sales-tax/last-known-rates"
import type { RefusalCache } from "../../service/origins/origins"
import { CachingCertificateStore, certificateCache, registerCertificateConnections } from "../exemptions/exemptions"
import { plannedDestination, quoteDestination, stampDestination } from "../../service/address/destination"
import { servesRequests } from "../../core/serving"
import { fromCradle } from "../../runtime"
import {
  MedusaCacheStore,
  MedusaCachingStore,
  MemoryStore,
  QuoteCache,
  type CacheModuleLike,
  type CachingModuleLike,
  type QuoteStore,
} from "./result-cache"
import type { CircuitBreaker } from "./circuit-breaker"
import { withDeadline } from "../../service/deadline"
import { checkFallbackCoverage } from "./fallback"
import { defaultRegionStates } from "../../medusa/tax-rate-service"
import { FailurePolicy } from "./failure-policy"
import { isOutage, markOutage, markServiceOk, quoteHealth } from "./health"
import { refuseTaxInclusiveMix } from "./inclusive-quote"
import { QuoteConnections } from "./quote-connections"
import { QuotePipeline } from "./quote-pipeline"
import { newProviderStats, type ProviderStats, type Quote, type TaxLine } from "./quote-types"
import { RateRecorder } from "./rate-recorder"
import { contextWithLinesSnapshot, noHookWarning, snapshotFor, type NoHook } from "./snapshot"
import { taxLineContextFallbackOn } from "../../medusa/tax-line-context-fallback"
import { snapshotOfLines } from "../hooks/tax-line-context-handler"
import { taxLines, type TaxLineDeps } from "./tax-lines"

interface Deps {
  logger?: Logger
  [key: string]: unknown
}

/** Medusa calls getTaxLines twice per recalculation (items, then shipping): one POST carts serves both. */
export class SalesTaxProviderService implements ITaxProvider {
  static identifier = SALES_TAX_PROVIDER_IDENTIFIER

  /** Called by Medusa's provider loader at boot: bad options stop the app with a clear message. */
  static validateOptions(options: Record<string, unknown>): void {
    resolvePluginOptions(options)
  }

  readonly options: PluginOptions
  /** The default connection's client (the probe; carts of channels without a connection of their own). */
  readonly client: SalesTaxClient
  readonly cache: QuoteCache<Quote>
  /** the default connection's circuit breaker */
  readonly breaker: CircuitBreaker
  readonly stats: ProviderStats = newProviderStats()
  protected readonly logger: Pick<Logger, "info" | "warn" | "error" | "debug">
  readonly certificateStore: QuoteStore<CertificateRecord[]>
  /** the rates already known per ZIP and TIC, for a tax-inclusive state's first quote */
  readonly inclusiveHints = new InclusiveHints()
  /** The boot check of fallback coverage: its warning, if any. */
  readonly bootCheck: Promise<string | null>
  readonly #cradle: Deps
  readonly #connections: QuoteConnections
  readonly #rates: RateRecorder
  readonly #failure: FailurePolicy
  readonly #pipeline: QuotePipeline
  readonly #lineDeps: TaxLineDeps
  #warnedNoHook = false
  /** the cart context is missing: said once */
  readonly #onNoHook = (why: NoHook): void => {
    if (this.#warnedNoHook) return
    this.#warnedNoHook = true
    this.logger.warn(noHookWarning(why))
  }

  constructor(cradle: Deps, options: Record<string, unknown>) {
    this.options = resolvePluginOptions(options)
    this.logger = (fromCradle(cradle, "logger") as Logger | undefined) ?? console
    this.#connections = new QuoteConnections(this.options)
    this.client = this.#connections.client
    registerCertificateConnections(this.options.connections.map((c) => c.connectionId))
    // Medusa's Caching Module when the Tax Module reaches it, else the deprecated Cache Module, else in process
    const caching = fromCradle(cradle, "caching") as CachingModuleLike | undefined
    const cache = fromCradle(cradle, "cache") as CacheModuleLike | undefined
    const usable = (c?: { get?: unknown; set?: unknown }) => typeof c?.get === "function" && typeof c.set === "function"
    const store = usable(caching) ? new MedusaCachingStore<Quote>(caching!) : usable(cache) ? new MedusaCacheStore<Quote>(cache!) : null
    this.cache = new QuoteCache<Quote>(store ?? new MemoryStore<Quote>(), this.options.cacheTtlSeconds)
    this.certificateStore = usable(caching) ? new CachingCertificateStore(caching!) : certificateCache()
    this.breaker = this.breakerFor(this.options.connectionId)
    this.#rates = new RateRecorder(this.logger)
    const providerId = this.getIdentifier()
    const base = { options: this.options, logger: this.logger, stats: this.stats }
    this.#failure = new FailurePolicy({ ...base, providerId, rateMemory: () => this.rateMemory() })
    this.#pipeline = new QuotePipeline({
      ...base,
      cache: this.cache,
      connections: this.#connections,
      certificateStore: this.certificateStore,
      inclusiveHints: this.inclusiveHints,
      rates: this.#rates,
      failure: this.#failure,
      refusalCache: () => fromCradle(cradle, "caching") as RefusalCache | undefined,
    })
    this.#lineDeps = { providerId, warn: (m) => this.logger.warn(m) }
    const health = quoteHealth()
    health.policy = this.options.failurePolicy
    health.probe = () => this.probe()
    this.#cradle = cradle
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
    return checkFallbackCoverage(this.options, this.logger, await defaultRegionStates(this.#cradle as Record<string, unknown>))
  }

  /**
   * Is POST carts answering now? One tiny fixed cart through the breaker, within timeoutMs: the
   * store middlewares ask under "block" before letting a cart change during an outage.
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

  /** The circuit breaker of a connection. */
  breakerFor(connectionId: string): CircuitBreaker {
    return this.#connections.breakerFor(connectionId)
  }

  /** The database-backed rate memory (module salesTax), else an in-process one. */
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

  /** One quote per distinct cart state (quote-pipeline.ts), all within `deadline` (timeoutMs from now by default). */
  quote(snapshot: CartSnapshot, destination: Address, deadline = Date.now() + this.options.timeoutMs): Promise<Quote> {
    return this.#pipeline.quote(snapshot, destination, deadline)
  }
}

export default SalesTaxProviderService
