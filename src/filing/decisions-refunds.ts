/** Pure refund math of filing: refunded and remaining quantities, a refund's routing to the service orders holding its lines,
 * order edits' plans, replace claims' charge, credits' share. */
import type { Address } from "../../packages/contract/src/index"
import { dec, roundCents, sum, type Dec } from "../../packages/contract/src/money"
import { originServiceId, sameAddress } from "../service/origins/origins"
import type { FilingLine, FilingRecordDTO, FilingRefundDTO, RefundItem, RefundSource } from "../modules/sales-tax-filing/types"

export function addTo(m: Map<string, number>, key: string, q: number | Dec): void {
  const sum = dec(m.get(key) ?? 0).plus(q)
  m.set(key, sum.toNumber())
}

export function refundedQuantities(refunds: Pick<FilingRefundDTO, "state" | "items">[]): Map<string, number> {
  const m = new Map<string, number>()
  for (const r of refunds) if (r.state === "refunded") for (const i of r.items) addTo(m, i.itemId, i.quantity)
  return m
}

/** What is left to refund of each line (the whole-order refund after the void cutoff). */
export function remainingItems(lines: FilingLine[], refunds: Pick<FilingRefundDTO, "state" | "items">[]): RefundItem[] {
  const done = refundedQuantities(refunds)
  return lines
    .map((l) => ({
      itemId: l.itemId,
      quantity: dec(l.quantity)
        .minus(done.get(l.itemId) ?? 0)
        .toNumber(),
    }))
    .filter((i) => i.quantity > 0)
}

/** Refund sources that are the customer's refunds (an edit's and a cancellation's are not). */
const CUSTOMER_REFUND_SOURCES = new Set<RefundSource>(["return", "claim", "exchange"])

type FamilyRecord = Pick<FilingRecordDTO, "order_id" | "snapshot" | "refunds" | "voided_at">

/** Quantity of `itemId` still refundable on `rec` (its line minus every refund row not superseded). */
export function remainingOn(rec: FamilyRecord, itemId: string): number {
  const line = rec.snapshot?.lines.find((l) => l.itemId === itemId)
  if (!line || rec.voided_at) return 0
  const used = (rec.refunds ?? [])
    .filter((r) => r.state !== "superseded")
    .flatMap((r) => r.items)
    .filter((i) => i.itemId === itemId)
  return dec(line.quantity)
    .minus(sum(used.map((i) => i.quantity)))
    .toNumber()
}

/** Splits a refund over the records holding its items, newest first; quantities nobody holds are dropped. */
export function routeRefund(items: RefundItem[], family: FamilyRecord[]): { orderId: string; items: RefundItem[] }[] {
  // what this refund takes of each record's items so far
  const out = new Map<string, Map<string, number>>()
  for (const it of items) {
    let q = dec(it.quantity)
    for (const rec of [...family].reverse()) {
      if (q.lte(0)) break
      const avail = dec(remainingOn(rec, it.itemId)).minus(out.get(rec.order_id)?.get(it.itemId) ?? 0)
      if (avail.lte(0)) continue
      const take = q.gt(avail) ? avail : q
      if (!out.has(rec.order_id)) out.set(rec.order_id, new Map())
      addTo(out.get(rec.order_id)!, it.itemId, take)
      q = q.minus(take)
    }
  }
  return family
    .filter((r) => out.has(r.order_id))
    .map((r) => ({ orderId: r.order_id, items: [...out.get(r.order_id)!.entries()].map(([itemId, quantity]) => ({ itemId, quantity })) }))
}

/** `blocked`: a refund row is still pending (plan again once sent); `refileLines`: what the order can be voided and filed again
 * with (its own record only, no refunds); else, after the cutoff, `refunds` (per record, each changed line's whole remaining
 * quantity) and `supplement` (the changed and added lines as Medusa charges them now, net of the customer's refunds). */
export interface EditPlan {
  /** false: what is filed already equals what Medusa charges after the edit */
  changed: boolean
  blocked: boolean
  refileLines: FilingLine[] | null
  refunds: { orderId: string; items: RefundItem[] }[]
  supplement: FilingLine[]
}

/** Where each line ships from after an edit, by item id; a line absent keeps its record's origin. */
export type LineOrigins = Readonly<Record<string, Address>>

/** What an edit files: per line, what `family` (the order's record first, then its edits') filed net of refunds against `now`
 * (Medusa's lines after the edit) net of the customer's refunds. A changed line moves whole: refunded where it lives, filed
 * again at its new quantity and tax. */
export function planEdit(now: FilingLine[], family: FamilyRecord[], origins: LineOrigins = {}): EditPlan {
  const live = family.filter((r) => r.snapshot && !r.voided_at)
  const rows = live.flatMap((r) => (r.refunds ?? []).filter((x) => x.state !== "superseded"))
  const blocked = rows.some((r) => r.state !== "refunded")
  const none: EditPlan = { changed: false, blocked, refileLines: null, refunds: [], supplement: [] }
  if (blocked) return none
  const ids = new Set<string>([...now.map((l) => l.itemId), ...live.flatMap((r) => r.snapshot!.lines.map((l) => l.itemId))])
  const changed: FilingLine[] = []
  const removed: string[] = []
  const supplement: FilingLine[] = []
  for (const id of ids) {
    const lines = live.flatMap((r) => r.snapshot!.lines.filter((l) => l.itemId === id))
    const mine = rows.flatMap((r) =>
      r.items.filter((i) => i.itemId === id).map((i) => ({ ...i, source: (r as FilingRefundDTO).source_type })),
    )
    const filedQ = dec(sum(lines.map((l) => l.quantity))).minus(sum(mine.map((i) => i.quantity)))
    const filedT = dec(sum(lines.map((l) => l.chargedTax))).minus(sum(mine.map((i) => i.tax ?? 0)))
    const cust = mine.filter((i) => CUSTOMER_REFUND_SOURCES.has(i.source))
    const n = now.find((l) => l.itemId === id)
    const wantQ = n ? dec(n.quantity).minus(sum(cust.map((i) => i.quantity))) : dec(0)
    const wantT = n ? dec(roundCents(n.chargedTax)).minus(sum(cust.map((i) => i.tax ?? 0))) : dec(0)
    // a line shipping from another origin than the records holding it moves whole, even at the same quantity and tax
    const at = n ? origins[id] : undefined
    const holders = live.filter((r) => remainingOn(r, id) > 0)
    const moved = !!at && holders.some((r) => !sameAddress(r.snapshot!.origin, at))
    if (filedQ.eq(wantQ) && dec(roundCents(filedT)).eq(roundCents(wantT)) && !moved) continue
    if (n) changed.push(n)
    else removed.push(id)
    if (n && wantQ.gt(0)) supplement.push({ ...n, index: supplement.length, quantity: wantQ.toNumber(), chargedTax: roundCents(wantT) })
  }
  if (!changed.length && !removed.length) return none
  // void and refile only an order filed as one service order whose lines all still ship from its origin
  const own =
    live.length === 1 &&
    rows.length === 0 &&
    now.every((l) => !origins[l.itemId] || sameAddress(origins[l.itemId]!, live[0]!.snapshot!.origin))
  const refileLines = own ? now.filter((l) => l.quantity > 0).map((l, index) => ({ ...l, index })) : null
  const moved = [...changed.map((l) => l.itemId), ...removed]
  const refunds = live
    .map((r) => ({
      orderId: r.order_id,
      items: moved.map((itemId) => ({ itemId, quantity: remainingOn(r, itemId) })).filter((i) => i.quantity > 0),
    }))
    .filter((r) => r.items.length)
  return { changed: true, blocked: false, refileLines, refunds, supplement }
}

export function originKey(a: Address): string {
  return [a.line1, a.line2 ?? "", a.city, a.state, a.zip].join("|")
}

/** Pure: an edit's supplement as service orders, one per origin: the order's on `childOrderId(edit id)`, others on `<that>~<8 hex>`. */
export function editSupplements(
  editId: string,
  orderOrigin: Address,
  lines: FilingLine[],
  origins: LineOrigins = {},
): { orderId: string; origin: Address; lines: FilingLine[] }[] {
  const base = childOrderId(editId)
  const groups = new Map<string, { orderId: string; origin: Address; lines: FilingLine[] }>()
  for (const l of lines) {
    const at = origins[l.itemId]
    const own = !at || sameAddress(at, orderOrigin)
    const key = own ? "" : originKey(at)
    const g = groups.get(key) ?? { orderId: own ? base : originServiceId(base, key, false), origin: own ? orderOrigin : at, lines: [] }
    g.lines.push({ ...l, index: g.lines.length })
    groups.set(key, g)
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g)
}

/** The service orderId of an edit's, claim's or credit's own order: the Medusa id, within the 50-character limit. */
export function childOrderId(id: string): string {
  if (id.length <= 50) return id
  // keep it recognisable and unique: a prefix and a hash of the whole id
  let h = 0x811c9dc5
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0
  return `${id.slice(0, 41)}_${h.toString(16).padStart(8, "0")}`
}

/** The refund key of a refund on a record that is not the Medusa order's own: `<source key>:<record order id>`. */
export function childRefundKey(key: string, recordOrderId: string, rootOrderId: string): string {
  return recordOrderId === rootOrderId ? key : `${key}:${recordOrderId}`
}

/** A replace claim's replacement as paid: the claimed units' tax deducted in line order, prices cut in proportion. */
export function replacementCharge(replacement: FilingLine[], claimedTax: number): FilingLine[] {
  let credit = dec(roundCents(Math.max(0, claimedTax)))
  const out: FilingLine[] = []
  for (const l of replacement) {
    const t = dec(roundCents(l.chargedTax))
    const used = credit.gt(t) ? t : credit
    credit = credit.minus(used)
    const left = t.minus(used)
    if (left.lte(0)) continue
    const price = t.gt(0) ? roundCents(dec(l.price).times(left).div(t)) : l.price
    out.push({ ...l, index: out.length, price, chargedTax: left.toNumber() })
  }
  return out
}

/** A line's share of tax for `quantity` of its `ofQuantity` units, rounded half-up to the cent. */
export function taxShare(lineTax: number, quantity: number, ofQuantity: number): number {
  if (!(ofQuantity > 0)) return 0
  return roundCents(dec(lineTax).times(quantity).div(ofQuantity))
}
