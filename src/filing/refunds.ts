/**
 * Refunds without a return, pure: which part of each Medusa payment refund the customer got back
 * without returning anything, as Medusa itself books it (src/medusa/refund-credit-lines.ts).
 *
 * Medusa's `refundPaymentWorkflow` (core-flows/dist/payment/workflows/refund-payment.js) looks at
 * the order's `summary.pending_difference` when the refund is made: while it is negative the store
 * owes the customer that much (a received return, a refund claim, an edit that lowered the order,
 * an exchange for something cheaper), and the refund pays that back first; the rest of the refund
 * (all of it when nothing is owed) is booked as an order credit line (`CREDIT_LINE_ADD`, reference
 * = the refund reason's label, else "payment_collection"). A credit line lowers the order's
 * `current_order_total`, so the next return is owed in full again: a refund without a return made
 * BEFORE a return never pays that return back, and one made AFTER it does, up to what is owed.
 *
 * So the refund without a return is exactly the credit line its refund created, decided once, when
 * the refund was made; nothing that happens later changes it (a filed credit stays right). The
 * credit line does not name its refund. Medusa copies credit lines into every new order version
 * (their `created_at` moves), but keeps `metadata.created_in_version`; the refund's order
 * transaction (reference "refund", reference_id = refund id) carries the order version it was made
 * in, and the credit line is the order change right after it (version + 1). So a credit line
 * created in version n belongs to the last refund (by version, then time) made in a version below
 * n that carries its reference and has no credit line yet.
 *
 * A refund with no order transaction was made past Medusa's refund workflow (the Payment Module
 * called directly): the order's books never saw it, nothing owed was paid back by it, and it is
 * wholly a refund without a return.
 */
import { dec, roundCents } from "../money"
import { refundCreditReference } from "../medusa/refund-credit-lines"

export interface RefundFact {
  id: string
  amount: number
  /** ISO instant */
  createdAt: string
  /** the order version of the refund's transaction; null: the refund has none (made through the Payment Module
   *  directly, not Medusa's refund workflow), so the order's books know nothing of it and it is wholly without a return */
  version: number | null
  /** the refund reason's label, when the admin chose one */
  reasonLabel?: string | null
}

export interface CreditLineFact {
  id: string
  amount: number
  /** the order version it was created in (`metadata.created_in_version`) */
  version: number
  reference?: string | null
}

// what Medusa writes: src/medusa/refund-credit-lines.ts (a reach-in, with its contract test)
export { refundCreditReference }

/**
 * Per refund id: the part of the refund booked as a credit line (0 when it paid back what the order
 * owed). Credit lines that no refund accounts for (made by other flows) are ignored; a credit line
 * never counts for more than its refund.
 */
export function refundCreditParts(refunds: RefundFact[], creditLines: CreditLineFact[]): Map<string, number> {
  const t = (s: string) => new Date(s).getTime()
  const booked = refunds.filter((r): r is RefundFact & { version: number } => r.version !== null)
  const byTime = booked.sort((a, b) => a.version - b.version || t(a.createdAt) - t(b.createdAt) || a.id.localeCompare(b.id))
  const out = new Map<string, number>(
    [...refunds]
      .sort((a, b) => t(a.createdAt) - t(b.createdAt) || a.id.localeCompare(b.id))
      .map((r) => [r.id, r.version === null ? roundCents(r.amount) : 0]),
  )
  const taken = new Set<string>()
  const lines = [...creditLines].sort((a, b) => a.version - b.version || a.id.localeCompare(b.id))
  for (const cl of lines) {
    const amount = dec(cl.amount)
    if (!amount.gt(0)) continue
    const match = byTime
      .filter((r) => !taken.has(r.id) && r.version < cl.version)
      .filter((r) => refundCreditReference(cl.reference) === refundCreditReference(r.reasonLabel))
      .filter((r) => dec(r.amount).gte(roundCents(amount)))
      .pop()
    if (!match) continue
    taken.add(match.id)
    out.set(match.id, roundCents(amount))
  }
  return out
}

/**
 * The tax of a refund without a return: once its credit is filed, the tax filed (decided when it
 * was filed and kept: later returns and edits change the order's tax and total, not what this
 * refund was); before that, `amount × order tax ÷ order total before credit lines` as it is now.
 */
export function creditTax(part: number, orderTax: number, orderTotalBeforeCredits: number, filedTax: number | null): number {
  if (filedTax !== null) return roundCents(filedTax)
  if (!(orderTotalBeforeCredits > 0) || !(part > 0)) return 0
  return roundCents(dec(part).times(orderTax).div(orderTotalBeforeCredits))
}
