/**
 * The quote pipeline of a cart state: (certificates →) cache → single-flight → breaker → POST
 * carts. `timeoutMs` bounds the whole quote, certificate lookup included; while the breaker is
 * open, cached answers are still served and only calls fail fast.
 */
import type { Address, CalculateCartsRequest, CertificateRecord } from "../../service/contract"
import type { PluginOptions } from "../../options"
import { cartsRequest } from "../../service/cart/build-service-cart"
import type { CartSnapshot } from "../../service/cart/context"
import { inclusiveLines } from "../inclusive/inclusive-cart"
import type { InclusiveHints } from "../inclusive/inclusive-hints"
import { refusedLocations, shareRefusal, type RefusalCache } from "../../service/origins/origins"
import { exemptCustomer, quoteExempt, RefusedCertificates, type ExemptQuoteDeps } from "./exempt-quote"
import type { FailurePolicy } from "./failure-policy"
import { markServiceOk } from "./health"
import { quoteInclusive } from "./inclusive-quote"
import type { QuoteConnections } from "./quote-connections"
import type { ProviderStats, Quote, QuoteLogger, QuoteRun, ServiceCart } from "./quote-types"
import type { RateRecorder } from "./rate-recorder"
import type { QuoteCache, QuoteStore } from "./result-cache"
import { originRefusals, quoteOfAnswer, serviceCarts } from "./service-carts"

export interface QuotePipelineDeps {
  options: PluginOptions
  logger: QuoteLogger
  stats: ProviderStats
  cache: QuoteCache<Quote>
  connections: QuoteConnections
  certificateStore: QuoteStore<CertificateRecord[]>
  inclusiveHints: InclusiveHints
  rates: RateRecorder
  failure: FailurePolicy
  /** Medusa's Caching Module, when the Tax Module resolves it (refused origins are shared through it) */
  refusalCache(): RefusalCache | undefined
}

export class QuotePipeline {
  /** Certificates the service refused, not offered again until the TTL passes. */
  readonly refusedCertificates = new RefusedCertificates()
  readonly #exempt: ExemptQuoteDeps

  constructor(private readonly deps: QuotePipelineDeps) {
    this.#exempt = { ...deps, refused: this.refusedCertificates }
  }

  /** One quote per distinct cart state, on the connection of the cart's sales channel (its certificates, its cache key, its breaker). */
  quote(snapshot: CartSnapshot, destination: Address, deadline: number): Promise<Quote> {
    const { connections } = this.deps
    const conn = connections.connectionFor(snapshot.sales_channel_id)
    const run: QuoteRun = { conn, breaker: connections.breakerFor(conn.connectionId), deadline }
    // only a verified identity (set by the hook) may carry a certificate: see request-actor.ts
    const exemptFor = exemptCustomer(snapshot)
    if (!exemptFor) return this.quoteWith(snapshot, destination, null, null, run)
    return quoteExempt(
      this.#exempt,
      destination,
      exemptFor,
      run,
      (exemptionId) => this.quoteWith(snapshot, destination, exemptionId, exemptFor, run),
      snapshot.cart_id,
    )
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
    const { conn } = run
    const { options, cache, stats } = this.deps
    const carts = serviceCarts(snapshot, destination, exemptionId, options)
    const basis = exemptionId ? { exemptionBasis: snapshot.exemption_basis ?? null, exemptCustomerId: exemptFor } : null
    if (!carts.length) return { hash: "", exemptionId, ...basis, lines: {} }
    const inclusive = inclusiveLines(snapshot)
    let got: { value: Quote; hit: boolean }
    try {
      if (inclusive.length)
        return {
          ...(await quoteInclusive({ ...this.deps, call: this.send(run) }, carts, inclusive, destination, exemptionId, run)),
          ...basis,
        }
      // sent as hashed: buildServiceCart's carts are valid by construction, so the client does not check them again
      const request = cartsRequest(
        carts.map((c) => c.cart),
        conn.connectionId,
      )
      got = await cache.getOrLoad(request.hash, () => this.send(run)(carts, request.hash, exemptionId, request))
    } catch (err) {
      // a refused origin falls back to the `origin` option and the cart is quoted again (each retry
      // drops one more location, so this ends)
      if (retries >= carts.length || !this.refuseOrigins(err, carts, snapshot)) throw err
      return this.quoteWith(snapshot, destination, exemptionId, exemptFor, run, retries + 1)
    }
    const { value, hit } = got
    if (hit) stats.cacheHits++
    // after the shopper's answer: the rate memory is best effort and never on the checkout path
    else if (!exemptionId) {
      // the known rates at once (in process, a few map writes): the cart's next state starts from them
      this.deps.inclusiveHints.record(carts, value.lines, destination.zip, conn.connectionId)
      setImmediate(() => this.deps.rates.rememberAll(carts, value, destination))
    }
    // a quote is never changed once made (cached as it is): a copy only to add the exemption's basis
    return basis ? { ...value, ...basis } : value
  }

  /** One POST carts of `sent` (its body prepared) through the run's breaker, by its deadline. */
  protected send(run: QuoteRun) {
    return (
      sent: readonly ServiceCart[],
      hash: string,
      exemptionId: string | null,
      request: { body: CalculateCartsRequest; json: string },
    ) =>
      run.breaker.execute(async (): Promise<Quote> => {
        this.deps.stats.serviceCalls++
        const res = await run.conn.client.calculateCarts(request.body, { deadline: run.deadline, prepared: request })
        markServiceOk()
        this.deps.failure.answered(run.conn.client)
        return quoteOfAnswer(sent, res, hash, exemptionId)
      })
  }

  /**
   * Marks the stock locations whose address the service refused as an origin (originRefusals),
   * each logged once and shared with the other instances; true when at least one was newly marked.
   */
  protected refuseOrigins(err: unknown, carts: ServiceCart[], snapshot: CartSnapshot): boolean {
    const found = originRefusals(err, carts, snapshot, refusedLocations(), new Date())
    for (const { refusal: r, message } of found) {
      refusedLocations().set(r.locationId, r)
      void shareRefusal(this.deps.refusalCache(), r)
      this.deps.stats.refusedOrigins++
      this.deps.logger.warn(
        `sales-tax: the service refused the address of stock location ${r.locationId}${r.name ? ` (${r.name})` : ""} as an origin (${message}); its lines use the \`origin\` option until the address is fixed (Settings → Sales Tax → Ship-from locations)`,
      )
    }
    return found.length > 0
  }
}
