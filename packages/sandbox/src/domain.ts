import { randomUUID } from "node:crypto"
import type {
  Address,
  CalculateCartsRequest,
  CalculateCartsResponse,
  CartLineItemIn,
  CartOut,
  CartToOrderRequest,
  CertificateList,
  CertificateRecord,
  CreateCertificateRequest,
  CreateOrderRequest,
  ErrorDetail,
  ExemptionIn,
  ExemptionOut,
  LineItemOut,
  ListCertificatesQuery,
  OrderRecord,
  RefundRecord,
  RefundRequest,
  TicSearchResponse,
} from "@medusa-sales-tax/contract"
import { dec, roundCents, sum } from "./money"
import { quoteLines } from "./engine"
import { InvalidCursorError, searchTics as searchTicIndex } from "./tic"
import { lookupZip, verifyAddress as verifyPostalAddress } from "./address"
import type { SandboxClock } from "./clock"
import { canVoid, voidCutoff } from "./cutoff"
import { SandboxError, badRequest, notFound, unprocessable } from "./problem"
import type { SandboxStore, StoreOp } from "./store"

/** The flag put on a cart or order claiming isExempt when no certificate matches. */
export const EXEMPT_NO_CERTIFICATE = "Exempt--No certificate"

/** Largest |price| and quantity the sandbox accepts (keeps every amount exact in a double). */
export const MAX_PRICE = 1_000_000_000
export const MAX_QUANTITY = 1_000_000_000

/** A cart as stored: the cart response object plus bookkeeping. */
export interface StoredCart {
  cart: CartOut
  connectionId: string
  transactionDate: string
  updatedDate: string
}

/** An order as stored: the record (without refunds) plus its refunds. */
export interface StoredOrder {
  order: Omit<OrderRecord, "refunds">
  refunds: RefundRecord[]
  createdDate: string
}

/** What remains of a voided order: lets a second void answer 204. */
export interface VoidedMarker {
  orderId: string
  voidedAt: string
}

export interface RefundOutcome {
  /** The response body: an array holding the one refund record created (or replayed). */
  refunds: RefundRecord[]
  /** True when the idempotency key was seen before and the original refund is returned. */
  replayed: boolean
  /** True when the request carried no idempotency key (HTTP adds X-Service-Warning). */
  withoutKey: boolean
}

/** Where an input came from, for located errors ("body", "body.items[0]", ...). */
type Loc = string

/** Options of the legacy v1 layer. */
export interface LineRules {
  /** Accept the same itemId on several lines (told apart by index), as v1 does. v3 refuses it. */
  repeatedItemIds?: boolean
}

/**
 * An instant as ISO text. Every request of a second shares the text up to the milliseconds: it is
 * written once per second ("2026-11-27T14:00:05."), the milliseconds appended.
 */
const lastSecond = { s: NaN, prefix: "" }
function iso(d: Date | string): string {
  const date = typeof d === "string" ? new Date(d) : d
  const t = date.getTime()
  const s = Math.floor(t / 1000)
  if (s !== lastSecond.s) {
    const text = date.toISOString() // an invalid date (NaN) throws here, as always
    lastSecond.s = s
    lastSecond.prefix = text.slice(0, -4)
    return text
  }
  const ms = t - s * 1000
  return lastSecond.prefix + (ms < 10 ? "00" : ms < 100 ? "0" : "") + ms + "Z"
}

/** A cart or order without an exemption reference (records are immutable: one object serves them all). */
const NO_EXEMPTION: { out: ExemptionOut } = { out: { exemptionId: null, isExempt: null, flag: null } }

/**
 * The sandbox's business rules, independent of HTTP: carts, orders, refunds and certificates of
 * each connection, over a `SandboxStore` and a `SandboxClock`. Every method takes inputs already
 * validated against the wire contract (src/contract) and either returns the response body or
 * throws a `SandboxError` (status, detail, located errors). A method that throws writes nothing;
 * a method that succeeds commits its changes in one atomic (journaled) step.
 *
 * Both the version 3 routes and the legacy version 1 routes call this class.
 */
export class SandboxDomain {
  constructor(
    readonly store: SandboxStore,
    readonly clock: SandboxClock,
  ) {}

  now(): Date {
    return this.clock.now()
  }

  // -------------------------------------------------------------------------------------------
  // Carts
  // -------------------------------------------------------------------------------------------

  /** Computes tax for each cart and stores (upserts) it under its cartId (generated when absent). */
  calculateCarts(connectionId: string, req: CalculateCartsRequest, rules: LineRules = {}): CalculateCartsResponse {
    const now = this.now()
    const nowIso = iso(now)
    const transactionDate = req.transactionDate ? iso(req.transactionDate) : nowIso
    const errors: ErrorDetail[] = []
    const items: CartOut[] = []
    req.items.forEach((cart, i) => {
      const loc = `body.items[${i}]`
      const lineErrors = checkLines(cart.lineItems, `${loc}.lineItems`, rules)
      // a US origin whose ZIP lies in another state than the one sent is refused (the ship-from
      // address decides origin-based rates); a ZIP the database does not know is taken as sent
      if (cart.origin.countryCode !== "CA") {
        const z = lookupZip(cart.origin.zip.slice(0, 5))
        if (z && z.state !== cart.origin.state.toUpperCase())
          lineErrors.push({
            location: `${loc}.origin.zip`,
            message: `zip ${cart.origin.zip} is in ${z.state}, not in ${cart.origin.state}`,
            value: cart.origin.zip,
          })
      }
      errors.push(...lineErrors)
      const ex = this.resolveExemption(connectionId, cart.customerId, cart.destination, cart.exemption, loc, errors)
      if (lineErrors.length || !ex) return
      const lineItems = quoteLines({
        origin: cart.origin,
        destination: cart.destination,
        lineItems: cart.lineItems,
        exemptStates: ex.exemptStates,
        date: req.transactionDate ? new Date(transactionDate) : now,
      })
      items.push({
        cartId: cart.cartId ?? randomUUID(),
        customerId: cart.customerId,
        currency: cart.currency,
        deliveredBySeller: cart.deliveredBySeller ?? false,
        origin: cart.origin,
        destination: cart.destination,
        exemption: ex.out,
        lineItems,
      })
    })
    if (errors.length) throw unprocessable("the carts could not be calculated", errors)
    const updatedDate = nowIso
    this.store.commit(
      items.map((cart) => ({
        op: "put",
        coll: "carts",
        conn: connectionId,
        id: cart.cartId,
        value: { cart, connectionId, transactionDate, updatedDate } satisfies StoredCart,
      })),
    )
    return { connectionId, transactionDate, items }
  }

  getCart(connectionId: string, cartId: string): CartOut {
    const stored = this.store.get<StoredCart>("carts", connectionId, cartId)
    if (!stored) throw notFound(`cart ${cartId} not found`)
    return stored.cart
  }

  // -------------------------------------------------------------------------------------------
  // Orders
  // -------------------------------------------------------------------------------------------

  /** Converts a stored cart into an order: transactionDate = now, lines and tax from the cart. */
  cartToOrder(connectionId: string, req: CartToOrderRequest): OrderRecord {
    const now = this.now()
    const stored = this.store.get<StoredCart>("carts", connectionId, req.cartId)
    if (!stored) throw notFound(`cart ${req.cartId} not found`)
    this.assertOrderIdFree(connectionId, req.orderId)
    const completedDate = completion(req.completed, req.completedDate, now, "body")
    const c = stored.cart
    const order: StoredOrder["order"] = {
      connectionId,
      orderId: req.orderId,
      cartId: c.cartId,
      customerId: c.customerId,
      transactionDate: iso(now),
      completedDate,
      origin: c.origin,
      destination: c.destination,
      currency: c.currency,
      lineItems: c.lineItems,
      channel: null,
      deliveredBySeller: c.deliveredBySeller,
      excludeFromFiling: false,
      exemption: c.exemption,
      kind: "order",
    }
    this.putOrder(connectionId, { order, refunds: [], createdDate: iso(now) })
    return order
  }

  /**
   * Records an order directly (existing system, marketplace, bulk, or a standalone credit). The
   * caller states the tax collected per line. `addressAutocomplete` replaces the chosen addresses
   * with the verified form (an address that cannot be verified is a 422).
   */
  createOrder(
    connectionId: string,
    req: CreateOrderRequest,
    addressAutocomplete: "none" | "origin" | "destination" | "all" = "none",
    rules: LineRules = {},
  ): OrderRecord {
    const now = this.now()
    const errors: ErrorDetail[] = checkLines(req.lineItems, "body.lineItems", rules)
    let origin = req.origin
    let destination = req.destination
    if (addressAutocomplete === "origin" || addressAutocomplete === "all") origin = this.autocomplete(req.origin, "body.origin", errors)
    if (addressAutocomplete === "destination" || addressAutocomplete === "all")
      destination = this.autocomplete(req.destination, "body.destination", errors)
    const ex = this.resolveExemption(connectionId, req.customerId, destination, req.exemption, "body", errors)
    let completedDate: string | null = null
    try {
      completedDate = completion(req.completed, req.completedDate ?? undefined, now, "body")
    } catch (e) {
      if (e instanceof SandboxError) errors.push(...e.errors)
      else throw e
    }
    if (errors.length || !ex) throw unprocessable("the order could not be recorded", errors)
    this.assertOrderIdFree(connectionId, req.orderId)
    const kind = req.kind ?? "order"
    const credit = kind === "credit"
    const neg = (n: number) => (credit ? -Math.abs(n) : n)
    const order: StoredOrder["order"] = {
      connectionId,
      orderId: req.orderId,
      cartId: req.cartId ?? null,
      customerId: req.customerId,
      transactionDate: iso(req.transactionDate),
      completedDate,
      origin,
      destination,
      currency: req.currency,
      lineItems: req.lineItems.map((l) => ({
        index: l.index,
        itemId: l.itemId,
        price: neg(l.price),
        quantity: l.quantity,
        tic: l.tic ?? null,
        tax: { amount: neg(l.tax.amount), rate: l.tax.rate },
      })),
      channel: req.channel ?? null,
      deliveredBySeller: req.deliveredBySeller ?? false,
      excludeFromFiling: req.excludeFromFiling ?? false,
      exemption: ex.out,
      kind,
    }
    this.putOrder(connectionId, { order, refunds: [], createdDate: iso(now) })
    return order
  }

  /** The order (404 when unknown or voided); refunds included when `expandRefunds`. */
  getOrder(connectionId: string, orderId: string, expandRefunds = false): OrderRecord {
    const stored = this.store.get<StoredOrder>("orders", connectionId, orderId)
    if (!stored) throw notFound(`order ${orderId} not found`)
    return expandRefunds ? { ...stored.order, refunds: stored.refunds } : stored.order
  }

  /** Sets (or changes) the completedDate of an order. */
  updateOrder(connectionId: string, orderId: string, completedDate: string): OrderRecord {
    const stored = this.store.get<StoredOrder>("orders", connectionId, orderId)
    if (!stored) throw notFound(`order ${orderId} not found`)
    const order = { ...stored.order, completedDate: iso(completedDate) }
    this.store.commit([{ op: "put", coll: "orders", conn: connectionId, id: orderId, value: { ...stored, order } satisfies StoredOrder }])
    return order
  }

  /**
   * Voids an order: removes it with its refunds and frees its orderId. A voided order voided again
   * is a no-op; an unknown one is 404; after the cutoff it is 422 and nothing changes.
   */
  voidOrder(connectionId: string, orderId: string): void {
    const now = this.now()
    const stored = this.store.get<StoredOrder>("orders", connectionId, orderId)
    if (!stored) {
      if (this.store.get<VoidedMarker>("voided", connectionId, orderId)) return
      throw notFound(`order ${orderId} not found`)
    }
    if (!canVoid(stored.order, now)) {
      const cutoff = voidCutoff(new Date(stored.order.completedDate!))
      throw unprocessable(
        `order ${orderId} can no longer be voided: its void cutoff was ${cutoff.toISOString()} (12:00 AM Eastern on the 10th of the month after its completedDate); refund it instead`,
        [{ location: "path.orderId", message: "the void cutoff has passed", value: orderId }],
      )
    }
    this.store.commit([
      { op: "del", coll: "orders", conn: connectionId, id: orderId },
      { op: "put", coll: "voided", conn: connectionId, id: orderId, value: { orderId, voidedAt: iso(now) } satisfies VoidedMarker },
    ])
  }

  // -------------------------------------------------------------------------------------------
  // Refunds
  // -------------------------------------------------------------------------------------------

  /**
   * Records a refund against an order. Items omitted or empty: everything not yet refunded.
   * Per line, the refunded quantities never exceed the original quantity (422 otherwise); an
   * itemId (or cartItemIndex) not on the order is 422. Tax per refunded line = the line's tax ×
   * refunded / original quantity, rounded half-up to the cent, except that the refund that brings
   * the line's refunded quantity to its original quantity takes the exact remainder, so the refunds
   * of a line always sum to the line's tax. An idempotencyKey seen before on this order returns the
   * original response (replayed) whatever the rest of the body says.
   */
  refundOrder(connectionId: string, orderId: string, req: RefundRequest): RefundOutcome {
    const now = this.now()
    const stored = this.store.get<StoredOrder>("orders", connectionId, orderId)
    if (!stored) throw notFound(`order ${orderId} not found`)
    const key = req.idempotencyKey ?? null
    if (key !== null) {
      const prior = stored.refunds.find((r) => r.idempotencyKey === key)
      if (prior) return { refunds: [prior], replayed: true, withoutKey: false }
    }
    if (stored.order.kind === "credit") {
      throw unprocessable(`order ${orderId} is a credit and cannot be refunded`, [
        { location: "path.orderId", message: "a credit cannot be refunded", value: orderId },
      ])
    }
    const lines = stored.order.lineItems
    const refundedQty = new Map<number, ReturnType<typeof dec>>()
    const refundedTax = new Map<number, ReturnType<typeof dec>>()
    lines.forEach((_, li) => {
      refundedQty.set(li, dec(0))
      refundedTax.set(li, dec(0))
    })
    for (const r of stored.refunds) {
      for (const it of r.items) {
        const li = lines.findIndex((l) => l.index === it.index && l.itemId === it.itemId)
        if (li < 0) continue
        refundedQty.set(li, refundedQty.get(li)!.plus(it.quantity))
        refundedTax.set(li, refundedTax.get(li)!.plus(it.tax.amount))
      }
    }
    const wanted = new Map<number, ReturnType<typeof dec>>()
    const errors: ErrorDetail[] = []
    if (!req.items || req.items.length === 0) {
      lines.forEach((l, li) => {
        const rest = dec(l.quantity).minus(refundedQty.get(li)!)
        if (rest.gt(0)) wanted.set(li, rest)
      })
      if (wanted.size === 0) {
        throw unprocessable(`order ${orderId} is already fully refunded`, [
          { location: "body.items", message: "nothing left to refund on this order", value: req.items ?? null },
        ])
      }
    } else {
      req.items.forEach((it, i) => {
        const loc = `body.items[${i}]`
        const li =
          it.cartItemIndex !== undefined
            ? lines.findIndex((l) => l.index === it.cartItemIndex && l.itemId === it.itemId)
            : lines.findIndex((l) => l.itemId === it.itemId)
        if (li >= 0 && it.cartItemIndex === undefined && lines.some((l, k) => k !== li && l.itemId === it.itemId)) {
          // an order recorded through v1 may carry one itemId on several lines: the index decides
          errors.push({
            location: `${loc}.cartItemIndex`,
            message: `item ${it.itemId} is on several lines of order ${orderId}: give cartItemIndex`,
            value: null,
          })
          return
        }
        if (li < 0) {
          errors.push(
            it.cartItemIndex !== undefined
              ? {
                  location: `${loc}.cartItemIndex`,
                  message: `no line with index ${it.cartItemIndex} and itemId ${it.itemId} on order ${orderId}`,
                  value: it.cartItemIndex,
                }
              : { location: `${loc}.itemId`, message: `item ${it.itemId} is not on order ${orderId}`, value: it.itemId },
          )
          return
        }
        const total = (wanted.get(li) ?? dec(0)).plus(it.quantity)
        const line = lines[li]!
        const remaining = dec(line.quantity).minus(refundedQty.get(li)!)
        if (total.gt(remaining)) {
          errors.push({
            location: `${loc}.quantity`,
            message: `refund quantity ${total.toString()} for item ${line.itemId} exceeds what remains refundable (${remaining.toString()} of ${line.quantity})`,
            value: it.quantity,
          })
        }
        wanted.set(li, total)
      })
      if (errors.length) throw unprocessable("the refund could not be recorded", errors)
    }
    const items: LineItemOut[] = [...wanted.entries()]
      .sort(([a], [b]) => a - b)
      .map(([li, q]) => {
        const line = lines[li]!
        const after = refundedQty.get(li)!.plus(q)
        const amount = after.eq(line.quantity)
          ? dec(line.tax.amount).minus(refundedTax.get(li)!).toNumber()
          : roundCents(dec(line.tax.amount).times(q).div(line.quantity))
        return {
          index: line.index,
          itemId: line.itemId,
          price: line.price,
          quantity: q.toNumber(),
          tic: line.tic,
          tax: { amount, rate: line.tax.rate },
        }
      })
    const record: RefundRecord = {
      idempotencyKey: key,
      connectionId,
      createdDate: iso(now),
      returnedDate: req.returnedDate ? iso(req.returnedDate) : iso(now),
      items,
    }
    this.store.commit([
      {
        op: "put",
        coll: "orders",
        conn: connectionId,
        id: orderId,
        value: { ...stored, refunds: [...stored.refunds, record] } satisfies StoredOrder,
      },
    ])
    return { refunds: [record], replayed: false, withoutKey: key === null }
  }

  // -------------------------------------------------------------------------------------------
  // Exemption certificates
  // -------------------------------------------------------------------------------------------

  createCertificate(connectionId: string, req: CreateCertificateRequest): CertificateRecord {
    const now = this.now()
    const rec: CertificateRecord = {
      certificateId: randomUUID(),
      connectionId,
      customerId: req.customerId,
      customerName: req.customerName,
      address: req.address,
      reason: req.reason,
      reasonDescription: req.reasonDescription ?? null,
      customerBusinessType: req.customerBusinessType,
      customerBusinessDescription: req.customerBusinessDescription ?? null,
      states: req.states.map((s) =>
        s.identificationNumber === undefined
          ? { abbreviation: s.abbreviation }
          : { abbreviation: s.abbreviation, identificationNumber: s.identificationNumber },
      ),
      singlePurchase: req.singlePurchase ?? false,
      createdDate: iso(now),
      disabledAt: null,
    }
    this.store.commit([{ op: "put", coll: "certificates", conn: connectionId, id: rec.certificateId, value: rec }])
    return rec
  }

  getCertificate(connectionId: string, id: string): CertificateRecord {
    const rec = this.store.get<CertificateRecord>("certificates", connectionId, id)
    if (!rec) throw notFound(`certificate ${id} not found`)
    return rec
  }

  /** Disables a certificate (it stays readable, with disabledAt). Disabling twice is a no-op. */
  disableCertificate(connectionId: string, id: string): void {
    const rec = this.getCertificate(connectionId, id)
    if (rec.disabledAt) return
    this.store.commit([
      {
        op: "put",
        coll: "certificates",
        conn: connectionId,
        id,
        value: { ...rec, disabledAt: iso(this.now()) } satisfies CertificateRecord,
      },
    ])
  }

  /**
   * Lists the certificates of the given connections, filtered by customerId and by disabled
   * (false: active only, the default; true: disabled only), sorted by sortBy (ties broken by id),
   * a page of `limit` after the opaque `cursor`.
   */
  listCertificates(connectionIds: string[], q: ListCertificatesQuery): CertificateList {
    const key = (c: CertificateRecord): [string, string] => [q.sortBy === "createdDate" ? c.createdDate : c.certificateId, c.certificateId]
    const cmp = (a: [string, string], b: [string, string]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)
    const dir = q.ascending ? 1 : -1
    let after: [string, string] | null = null
    if (q.cursor !== undefined) {
      const c = decodeCursor(q.cursor)
      if (!c || c.s !== q.sortBy || c.a !== q.ascending) {
        throw unprocessable("invalid cursor", [
          { location: "query.cursor", message: "cursor is not one this listing returned (or sortBy/ascending changed)", value: q.cursor },
        ])
      }
      after = c.k
    }
    const all = this.store
      .list<CertificateRecord>("certificates", connectionIds)
      .filter((c) => (q.customerId === undefined || c.customerId === q.customerId) && (c.disabledAt !== null) === q.disabled)
      .sort((a, b) => dir * cmp(key(a), key(b)))
    const start = after ? all.filter((c) => dir * cmp(key(c), after!) > 0) : all
    const page = start.slice(0, q.limit)
    const more = q.limit > 0 && start.length > page.length
    const last = page[page.length - 1]
    return { items: page, nextCursor: more && last ? encodeCursor({ s: q.sortBy, a: q.ascending, k: key(last) }) : null }
  }

  // -------------------------------------------------------------------------------------------
  // TIC search and address verification (stateless)
  // -------------------------------------------------------------------------------------------

  searchTics(query: string, limit: number, cursor?: string): TicSearchResponse {
    try {
      const r = searchTicIndex(query, limit, cursor)
      return { query, results: r.results, nextCursor: r.nextCursor }
    } catch (e) {
      if (e instanceof InvalidCursorError) {
        throw unprocessable("invalid cursor", [
          { location: "body.cursor", message: "cursor is not one this search returned", value: cursor },
        ])
      }
      throw e
    }
  }

  /** The verified, normalized address; 422 with located errors (body.zip, body.state, body.city). */
  verifyAddress(address: Address, loc: Loc = "body"): Address {
    const errors: ErrorDetail[] = []
    const out = this.autocomplete(address, loc, errors)
    if (errors.length) throw unprocessable("the address could not be verified", errors)
    return out
  }

  // -------------------------------------------------------------------------------------------
  // internals
  // -------------------------------------------------------------------------------------------

  private autocomplete(address: Address, loc: Loc, errors: ErrorDetail[]): Address {
    const r = verifyPostalAddress(address)
    if (r.ok) return r.address
    for (const e of r.errors) errors.push({ location: `${loc}.${e.field}`, message: e.message, value: e.value })
    return address
  }

  private assertOrderIdFree(connectionId: string, orderId: string): void {
    if (this.store.get<StoredOrder>("orders", connectionId, orderId)) {
      throw badRequest(`an order with orderId ${orderId} already exists`, [
        { location: "body.orderId", message: "duplicate orderId", value: orderId },
      ])
    }
  }

  private putOrder(connectionId: string, stored: StoredOrder): void {
    const ops: StoreOp[] = [{ op: "put", coll: "orders", conn: connectionId, id: stored.order.orderId, value: stored }]
    if (this.store.get<VoidedMarker>("voided", connectionId, stored.order.orderId)) {
      ops.push({ op: "del", coll: "voided", conn: connectionId, id: stored.order.orderId })
    }
    this.store.commit(ops)
  }

  /**
   * Applies an exemption reference. exemptionId: the certificate must exist in this connection,
   * be active and belong to the customer (422 otherwise); it exempts the destination state when it
   * lists it. isExempt (without exemptionId): the customer's newest active certificate listing the
   * destination state is attached; when none matches, the cart/order is flagged
   * "Exempt--No certificate" and treated as exempt (tax 0) pending manual resolution.
   */
  private resolveExemption(
    connectionId: string,
    customerId: string,
    destination: Address,
    exemption: ExemptionIn | undefined,
    loc: Loc,
    errors: ErrorDetail[],
  ): { out: ExemptionOut; exemptStates?: ReadonlySet<string> } | null {
    if (!exemption) return NO_EXEMPTION
    const none = { out: { exemptionId: null, isExempt: exemption.isExempt ?? null, flag: null } }
    const state = destination.state
    if (exemption.exemptionId) {
      const cert = this.store.get<CertificateRecord>("certificates", connectionId, exemption.exemptionId)
      const at = `${loc}.exemption.exemptionId`
      if (!cert) {
        errors.push({ location: at, message: "no exemption certificate with this id in this connection", value: exemption.exemptionId })
        return null
      }
      if (cert.disabledAt) {
        errors.push({ location: at, message: "the exemption certificate is disabled", value: exemption.exemptionId })
        return null
      }
      if (cert.customerId !== customerId) {
        errors.push({ location: at, message: "the exemption certificate belongs to another customer", value: exemption.exemptionId })
        return null
      }
      const covers = cert.states.some((s) => s.abbreviation === state)
      return {
        out: { exemptionId: cert.certificateId, isExempt: exemption.isExempt ?? null, flag: null },
        exemptStates: covers ? new Set([state]) : new Set(),
      }
    }
    if (exemption.isExempt) {
      const match = this.store
        .list<CertificateRecord>("certificates", [connectionId])
        .filter((c) => !c.disabledAt && c.customerId === customerId && c.states.some((s) => s.abbreviation === state))
        .sort((a, b) =>
          a.createdDate < b.createdDate ? 1 : a.createdDate > b.createdDate ? -1 : a.certificateId < b.certificateId ? 1 : -1,
        )[0]
      if (match) return { out: { exemptionId: match.certificateId, isExempt: true, flag: null }, exemptStates: new Set([state]) }
      return { out: { exemptionId: null, isExempt: true, flag: EXEMPT_NO_CERTIFICATE }, exemptStates: new Set([state]) }
    }
    return none
  }
}

/** completedDate from completed/completedDate: given → must not be after now; completed only → now. */
function completion(completed: boolean | undefined, completedDate: string | undefined, now: Date, loc: Loc): string | null {
  if (completedDate !== undefined) {
    if (completed === false) {
      throw unprocessable("completed is false but a completedDate was given", [
        { location: `${loc}.completedDate`, message: "completedDate must be omitted while completed is false", value: completedDate },
      ])
    }
    const d = new Date(completedDate)
    if (d.getTime() > now.getTime()) {
      throw unprocessable("completedDate is in the future", [
        {
          location: `${loc}.completedDate`,
          message: `completedDate must be at or before the request time (${now.toISOString()})`,
          value: completedDate,
        },
      ])
    }
    return d.toISOString()
  }
  return completed ? now.toISOString() : null
}

/** Rules on line items beyond the schema: unique index and itemId, bounded price and quantity. */
function checkLines(
  lines: ReadonlyArray<Pick<CartLineItemIn, "index" | "itemId" | "price" | "quantity">>,
  loc: Loc,
  rules: LineRules = {},
): ErrorDetail[] {
  const errors: ErrorDetail[] = []
  // a repeat is looked for pairwise in a usual cart (no sets to build), in sets beyond 32 lines
  const sets = lines.length > 32 ? { idx: new Set<number>(), ids: new Set<string>() } : null
  lines.forEach((l, i) => {
    let twiceIndex = false
    let twiceId = false
    if (sets) {
      twiceIndex = sets.idx.has(l.index)
      twiceId = sets.ids.has(l.itemId)
      sets.idx.add(l.index)
      sets.ids.add(l.itemId)
    } else
      for (let k = 0; k < i; k++) {
        twiceIndex ||= lines[k]!.index === l.index
        twiceId ||= lines[k]!.itemId === l.itemId
      }
    if (twiceIndex) errors.push({ location: `${loc}[${i}].index`, message: "index appears twice in lineItems", value: l.index })
    if (!rules.repeatedItemIds && twiceId)
      errors.push({ location: `${loc}[${i}].itemId`, message: "itemId appears twice in lineItems", value: l.itemId })
    if (Math.abs(l.price) > MAX_PRICE)
      errors.push({ location: `${loc}[${i}].price`, message: `price must be between -${MAX_PRICE} and ${MAX_PRICE}`, value: l.price })
    if (l.quantity > MAX_QUANTITY)
      errors.push({ location: `${loc}[${i}].quantity`, message: `quantity must not exceed ${MAX_QUANTITY}`, value: l.quantity })
  })
  return errors
}

interface CursorData {
  s: string
  a: boolean
  k: [string, string]
}

function encodeCursor(c: CursorData): string {
  return Buffer.from(JSON.stringify(c), "utf8").toString("base64url")
}

function decodeCursor(s: string): CursorData | null {
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(s)) return null
    const c = JSON.parse(Buffer.from(s, "base64url").toString("utf8")) as unknown
    if (
      c &&
      typeof c === "object" &&
      typeof (c as CursorData).s === "string" &&
      typeof (c as CursorData).a === "boolean" &&
      Array.isArray((c as CursorData).k) &&
      (c as CursorData).k.length === 2 &&
      (c as CursorData).k.every((x) => typeof x === "string")
    )
      return c as CursorData
    return null
  } catch {
    return null
  }
}

/** Sum of the tax of an order's lines (decimal), for callers that need totals. */
export function orderTaxTotal(order: Pick<OrderRecord, "lineItems">): number {
  return sum(order.lineItems.map((l) => l.tax.amount)).toNumber()
}
