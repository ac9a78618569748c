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
import type { Address, CartIn, CartOut } from "../../contract"
import { isSalesTaxError, type SalesTaxClient } from "../../client"
import { getSalesTaxClient } from "../../client-factory"
import { resolvePluginOptions, type PluginOptions } from "../../options"
import { dec } from "../../money"
import { backSolveRate } from "./back-solve"
import { buildServiceCart, cartHash, itemTaxable, shippingTaxable, taxableDestination } from "./build-service-cart"
import {
  BLOCK_ERROR_CODE, BLOCK_ERROR_MESSAGE, CONTEXT_KEY, SALES_TAX_PROVIDER_IDENTIFIER, SHIPPING_ITEM_PREFIX,
  TAX_INCLUSIVE_ERROR_CODE, TAX_LINE_CODE, TAX_LINE_CODE_EXEMPT, TAX_LINE_CODE_FALLBACK, TAX_LINE_NAME,
  TAX_LINE_NAME_EXEMPT, TAX_LINE_NAME_FALLBACK,
} from "./constants"
import { CartSnapshot, type SnapshotItem } from "./context"
import { MedusaCacheStore, MedusaCachingStore, MemoryStore, QuoteCache, type CacheModuleLike, type CachingModuleLike, type QuoteStore } from "./result-cache"
import { certificateCache, findExemption } from "./exemptions"
import { BrokenCircuitError, CircuitBreaker } from "./circuit-breaker"

type TaxLine = ItemTaxLineDTO | ShippingTaxLineDTO

/** A quote as cached: the service's cart answer, reduced to what the lines need. */
export interface Quote {
  hash: string
  exemptionId: string | null
  lines: Record<string, { amount: number; rate: number; tic: number | null }>
}

/** Stats for tests and the bench. */
export interface ProviderStats {
  getTaxLines: number
  serviceCalls: number
  cacheHits: number
  fallbacks: number
  skippedNoAddress: number
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

/** Whether a failure means "the service is not answering properly" (counts for the breaker and the policy). */
export function isOutage(err: unknown): boolean {
  if (err instanceof BrokenCircuitError) return true
  if (!isSalesTaxError(err)) return true // unexpected: treat as an outage, never as a shopper error
  if (err.code === "validation") return false // refused by the client before sending: not the service's fault
  if (err.code === "timeout" || err.code === "network" || err.code === "response_validation") return true
  return err.status === null || err.status >= 500 || err.status === 429 || err.status === 401 || err.status === 403
}

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
  readonly client: SalesTaxClient
  readonly cache: QuoteCache<Quote>
  readonly breaker: CircuitBreaker
  readonly stats: ProviderStats = { getTaxLines: 0, serviceCalls: 0, cacheHits: 0, fallbacks: 0, skippedNoAddress: 0 }
  protected readonly logger: Pick<Logger, "info" | "warn" | "error" | "debug">
  #warnedNoHook = false

  constructor(cradle: Deps, options: Record<string, unknown>) {
    this.options = resolvePluginOptions(options)
    this.logger = tryResolve<Logger>(cradle, "logger") ?? console
    this.client = getSalesTaxClient(this.options, {
      // checkout path: the whole call, retries included, stays within timeoutMs
      retry: { maxAttempts: 2, baseDelayMs: 50, maxDelayMs: 200, maxElapsedMs: this.options.timeoutMs },
    })
    this.cache = new QuoteCache<Quote>(this.pickStore(cradle), this.options.cacheTtlSeconds)
    this.breaker = new CircuitBreaker({
      failures: this.options.circuitBreaker.failures,
      halfOpenAfterMs: this.options.circuitBreaker.halfOpenAfterMs,
      isFailure: isOutage,
    })
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
    const dest = taxableDestination(context.address)
    if (!dest.address) {
      // not the US, or no state / ZIP yet: zero tax, no call
      this.stats.skippedNoAddress++
      return []
    }
    const snapshot = this.snapshotFor(itemLines, shippingLines, context)
    this.refuseTaxInclusive(snapshot)

    let quote: Quote
    try {
      quote = await this.quote(snapshot, dest.address)
    } catch (err) {
      return this.onFailure(err, itemLines, shippingLines)
    }

    const lines: TaxLine[] = []
    const exempt = !!quote.exemptionId
    const items = new Map(snapshot.items.map((i) => [i.id, i]))
    for (const l of itemLines) {
      const it = items.get(l.line_item.id)
      const q = quote.lines[l.line_item.id]
      if (!it || !q) continue // quantity 0: no line
      lines.push({ ...this.line(itemTaxable(it), q, exempt, quote), line_item_id: l.line_item.id })
    }
    const ships = new Map(snapshot.shipping_methods.map((s) => [s.id, s]))
    for (const l of shippingLines) {
      const sm = ships.get(l.shipping_line.id)
      const q = quote.lines[`${SHIPPING_ITEM_PREFIX}${l.shipping_line.id}`]
      if (!sm || !q) continue
      lines.push({ ...this.line(shippingTaxable(sm), q, exempt, quote), shipping_line_id: l.shipping_line.id })
    }
    return lines
  }

  protected line(taxable: ReturnType<typeof itemTaxable>, q: Quote["lines"][string], exempt: boolean, quote: Quote) {
    const solved = backSolveRate({ taxable, amount: q.amount, displayRatePct: dec(q.rate).times(100).toNumber() })
    if (!solved.exact) {
      this.logger.warn(`sales-tax: line tax ${q.amount} cannot be matched to the cent by a stored rate (taxable ${taxable.toString()})`)
    }
    const isExemptLine = exempt && q.amount === 0
    return {
      rate: solved.rate,
      code: isExemptLine ? TAX_LINE_CODE_EXEMPT : TAX_LINE_CODE,
      name: isExemptLine ? TAX_LINE_NAME_EXEMPT : TAX_LINE_NAME,
      provider_id: this.getIdentifier(),
      data: { amount: q.amount, service_rate: q.rate, tic: q.tic, cart_hash: quote.hash, exemption_id: quote.exemptionId },
    }
  }

  /** The cart as the hook described it; rebuilt from the lines when the hook is absent. */
  protected snapshotFor(itemLines: ItemTaxCalculationLine[], shippingLines: ShippingTaxCalculationLine[], context: TaxCalculationContext): CartSnapshot {
    const raw = (context.additional_context as Record<string, unknown> | undefined)?.[CONTEXT_KEY]
    const parsed = raw === undefined ? undefined : CartSnapshot.safeParse(raw)
    if (parsed?.success) {
      const snap = parsed.data
      // lines the hook did not see (a host calling the workflow with its own items): add them
      const known = new Set(snap.items.map((i) => i.id))
      for (const l of itemLines) if (!known.has(l.line_item.id)) snap.items.push(this.itemFromLine(l))
      const knownShip = new Set(snap.shipping_methods.map((s) => s.id))
      for (const l of shippingLines) {
        if (!knownShip.has(l.shipping_line.id)) snap.shipping_methods.push({ id: l.shipping_line.id, shipping_option_id: l.shipping_line.shipping_option_id, amount: String(l.shipping_line.unit_price ?? 0), discount: "0", is_tax_inclusive: false, has_tax_inclusive_discount: false })
      }
      return snap
    }
    if (!this.#warnedNoHook) {
      this.#warnedNoHook = true
      this.logger.warn(
        `sales-tax: no cart context from the tax-line hooks${parsed && !parsed.success ? " (invalid)" : ""}: discounts are not seen and items and shipping are quoted separately. See docs/provider.md (hook composition).`,
      )
    }
    const ids = [...itemLines.map((l) => l.line_item.id), ...shippingLines.map((l) => l.shipping_line.id)].sort()
    const shipping = (context.shipping_methods ?? []).map((m) => ({
      id: m.id, shipping_option_id: m.shipping_option_id, amount: String(m.amount ?? 0), discount: "0", is_tax_inclusive: false, has_tax_inclusive_discount: false,
    }))
    return {
      v: 1,
      cart_id: `lines_${cartHash({ ids } as never, "").slice(0, 40)}`,
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

  protected refuseTaxInclusive(s: CartSnapshot): void {
    const bad = [...s.items, ...s.shipping_methods].filter((l) => l.is_tax_inclusive || l.has_tax_inclusive_discount)
    if (bad.length) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "Tax-inclusive prices or promotions are not supported for US sales tax: set the US region's prices and promotions as tax-exclusive.",
        TAX_INCLUSIVE_ERROR_CODE,
      )
    }
  }

  /** One quote per distinct cart state: cache → single-flight → circuit breaker → POST carts. */
  async quote(snapshot: CartSnapshot, destination: Address): Promise<Quote> {
    // the certificate lookup fails fast while the circuit is open, but does not close it: only
    // POST carts decides whether the service is back (a cached or cheap list answering says little)
    if (this.breaker.state === "open") throw new BrokenCircuitError()
    const exemptionId = snapshot.customer_id?.startsWith("cus_")
      ? await findExemption(this.client, snapshot.customer_id, destination.state, this.options.cacheTtlSeconds)
      : null
    const cart = buildServiceCart({
      snapshot, origin: this.options.origin, destination, shippingTic: this.options.shippingTic, defaultTic: this.options.defaultTic, exemptionId,
    })
    if (!cart.lineItems.length) return { hash: "", exemptionId, lines: {} }
    const hash = cartHash(cart, this.options.connectionId)
    const { value, hit } = await this.cache.getOrLoad(hash, () => this.breaker.execute(() => this.callService(cart, hash, exemptionId)))
    if (hit) this.stats.cacheHits++
    return value
  }

  protected async callService(cart: CartIn, hash: string, exemptionId: string | null): Promise<Quote> {
    this.stats.serviceCalls++
    const res = await this.client.calculateCarts({ items: [cart] })
    const out: CartOut | undefined = res.items[0]
    const lines: Quote["lines"] = {}
    for (const li of out?.lineItems ?? []) lines[li.itemId] = { amount: li.tax.amount, rate: li.tax.rate, tic: li.tic }
    return { hash, exemptionId, lines }
  }

  protected onFailure(err: unknown, itemLines: ItemTaxCalculationLine[], shippingLines: ShippingTaxCalculationLine[]): TaxLine[] {
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
    if (this.options.failurePolicy === "block") {
      this.logger.warn(`sales-tax: service unavailable (${why}); failurePolicy "block" refuses the cart update`)
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, BLOCK_ERROR_MESSAGE, BLOCK_ERROR_CODE)
    }
    this.stats.fallbacks++
    this.logger.warn(`sales-tax: service unavailable (${why}); using fallback rates, the order will be re-quoted at filing`)
    const fb = (rates: { id?: string; rate?: number | null; code?: string | null; name?: string }[]) => {
      if (this.options.fallbackRate !== undefined || !rates.length) {
        return [{ rate: this.options.fallbackRate ?? 0, code: TAX_LINE_CODE_FALLBACK, name: TAX_LINE_NAME_FALLBACK }]
      }
      return rates.map((r) => ({ rate: r.rate ?? 0, code: TAX_LINE_CODE_FALLBACK, name: `${TAX_LINE_NAME_FALLBACK}: ${r.name ?? r.code ?? "region rate"}` }))
    }
    const data = { fallback: true, reason: why.slice(0, 200) }
    return [
      ...itemLines.flatMap((l) => fb(l.rates).map((r) => ({ ...r, provider_id: this.getIdentifier(), data, line_item_id: l.line_item.id }))),
      ...shippingLines.flatMap((l) => fb(l.rates).map((r) => ({ ...r, provider_id: this.getIdentifier(), data, shipping_line_id: l.shipping_line.id }))),
    ]
  }
}

export { certificateCache }
export default SalesTaxProviderService
