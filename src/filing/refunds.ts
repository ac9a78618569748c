/** Refunds without a return, pure: the part of each payment refund the customer got back without returning anything (the
 * credit line Medusa booked for it), decided once per refund. Details: docs/filing.md, "Refunds without a return". */
import { dec, roundCents } from "../../packages/contract/src/money"
import { refundCreditReference } from "../medusa/refund-credit-lines"

export interface RefundFact {
  id: string
  amount: number
  /** ISO instant */
  createdAt: string
  /** the order version of the refund's transaction; null: none (made past Medusa's workflow: wholly without a return) */
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

/** Per refund id: the part booked as a credit line (0: it paid back what the order owed); other credit lines ignored. */
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

/** The tax of a refund without a return: once filed, the tax filed; before, `part × order tax ÷ total before credit lines`. */
export function creditTax(part: number, orderTax: number, orderTotalBeforeCredits: number, filedTax: number | null): number {
  if (filedTax !== null) return roundCents(filedTax)
  if (!(orderTotalBeforeCredits > 0) || !(part > 0)) return 0
  return roundCents(dec(part).times(orderTax).div(orderTotalBeforeCredits))
}
