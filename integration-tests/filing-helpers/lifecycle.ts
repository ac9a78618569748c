/**
 * The lifecycle model of the Medusa-level property test: what Medusa charged per line, net of what
 * it refunded to the customer, under the rules docs/filing.md states ("What charged means"), and
 * what the service holds for the order (its own order, its edits', exchanges' and claims' orders,
 * lines minus refunds), per line, to the cent.
 */
import { dec, roundCents, sum } from "../../packages/contract/src/money"
import type { SalesTaxClient } from "../../src/service/client"

/** One line's "home" basis: quantity and tax it is filed with, and what was refunded of it there. */
export interface ModelLine {
  q: number
  a: number
  rq: number
  rt: number
  voided?: boolean
}

export class LifecycleModel {
  readonly lines = new Map<string, ModelLine>()

  /** A line filed (placement, refile, an edit's or an exchange's own order) at quantity q and tax a. */
  file(itemId: string, q: number, a: number) {
    this.lines.set(itemId, { q, a: roundCents(a), rq: 0, rt: 0 })
  }
  /** A return / refund claim of q units: the share of the line's tax, the last refund taking the rest. */
  refund(itemId: string, q: number) {
    const l = this.lines.get(itemId)
    if (!l || q <= 0) return
    const take = Math.min(q, l.q - l.rq)
    if (take <= 0) return
    const t = l.rq + take >= l.q ? dec(l.a).minus(l.rt).toNumber() : roundCents(dec(l.a).times(take).div(l.q))
    l.rq += take
    l.rt = roundCents(dec(l.rt).plus(t))
  }
  /** An edit changed the line: it is filed again at Medusa's new quantity and tax, net of the customer's refunds. */
  edit(itemId: string, qNow: number, aNow: number) {
    const l = this.lines.get(itemId)
    const rq = l?.rq ?? 0
    const rt = l?.rt ?? 0
    this.lines.set(itemId, { q: qNow - rq, a: roundCents(dec(aNow).minus(rt)), rq: 0, rt: 0 })
  }
  cancel() {
    for (const l of this.lines.values()) l.voided = true
  }
  /** Net charged per line (tax minus the customer's refunds). */
  net(): Map<string, number> {
    return new Map([...this.lines.entries()].map(([id, l]) => [id, l.voided ? 0 : roundCents(dec(l.a).minus(l.rt))]))
  }
}

/** Net filed at the service per line over the given service orders (404 = voided: nothing). */
export async function netFiled(client: SalesTaxClient, orderIds: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>()
  for (const id of orderIds) {
    let o
    try {
      o = await client.getOrder(id, { expandRefunds: true })
    } catch (e) {
      if ((e as { status?: number }).status === 404) continue
      throw e
    }
    for (const l of o.lineItems) out.set(l.itemId, roundCents(dec(out.get(l.itemId) ?? 0).plus(l.tax.amount)))
    for (const r of o.refunds ?? []) {
      for (const i of r.items) out.set(i.itemId, roundCents(dec(out.get(i.itemId) ?? 0).minus(Math.abs(i.tax.amount))))
    }
  }
  return out
}

/** Per line differences between two maps (missing = 0), for a readable failure. */
export function lineDiffs(expected: Map<string, number>, actual: Map<string, number>): string[] {
  const ids = new Set([...expected.keys(), ...actual.keys()])
  const out: string[] = []
  for (const id of ids) {
    const e = expected.get(id) ?? 0,
      a = actual.get(id) ?? 0
    if (!dec(e).eq(a)) out.push(`${id}: charged ${e.toFixed(2)}, filed ${a.toFixed(2)}`)
  }
  return out
}

export const total = (m: Map<string, number>) => roundCents(sum([...m.values()]))
