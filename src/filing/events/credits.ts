/** Refunds without a return (manual refunds): listed per order, filed as standalone credits. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { filingProcessor, filingStore, result, type FilingResult } from "../processor-factory"
import { getPluginOptions } from "../../options"
import { orderRecordInput } from "../snapshot"
import { newRecordFor } from "../processor-types"
import { childOrderId } from "../decisions-refunds"
import { creditTax, refundCreditParts } from "../refunds"
import { REFUND_TRANSACTION_REFERENCE, creditLineVersion } from "../../medusa/refund-credit-lines"
import { roundCents, dec } from "../../../packages/contract/src/money"
import { amountString } from "../../money/amount"
import type { FilingSnapshot } from "../../modules/sales-tax-filing/types"
import { graph } from "../../query"
import { paymentOrderId } from "./orders"
import type { OrderRow } from "../order-rows"

/** A refund without a return (in part), as listManualRefunds reads it. */
export type ManualRefund = Awaited<ReturnType<typeof listManualRefunds>>[number]

export function creditOrderId(refundId: string): string {
  return childOrderId(`credit_${refundId}`)
}

type RefundRow = { id: string; amount?: unknown; created_at: string | Date; refund_reason?: { label?: string | null } | null }

/** An order's refunds and credit lines as listManualRefunds reads them. */
interface RefundedOrderRow extends Pick<OrderRow, "id" | "tax_total" | "total"> {
  credit_line_total?: unknown
  credit_lines?:
    | { id: string; amount?: unknown; reference?: string | null; version?: unknown; metadata?: { created_in_version?: unknown } | null }[]
    | null
  transactions?: { reference?: string | null; reference_id?: string | null; version?: unknown }[] | null
  payment_collections?: { payments?: { id: string; refunds?: RefundRow[] | null }[] | null }[] | null
}

/** The order's refunds without a return (in part): the part Medusa booked as a credit line (../refunds.ts). */
export async function listManualRefunds(container: MedusaContainer, orderId: string) {
  const [order] = await graph<RefundedOrderRow>(container, {
    entity: "order",
    fields: [
      "id",
      "tax_total",
      "total",
      "credit_line_total",
      "credit_lines.id",
      "credit_lines.amount",
      "credit_lines.reference",
      "credit_lines.version",
      "credit_lines.metadata",
      "transactions.reference",
      "transactions.reference_id",
      "transactions.version",
      "payment_collections.payments.id",
      "payment_collections.payments.refunds.id",
      "payment_collections.payments.refunds.amount",
      "payment_collections.payments.refunds.created_at",
      "payment_collections.payments.refunds.refund_reason.label",
    ],
    filters: { id: orderId },
  })
  if (!order) return []
  // the order version each refund was made in (its transaction's)
  const versionOf = new Map<string, number>(
    (order.transactions ?? [])
      .filter((t) => t.reference === REFUND_TRANSACTION_REFERENCE)
      .map((t) => [t.reference_id ?? "", Number(t.version ?? 0)]),
  )
  const refunds = (order.payment_collections ?? [])
    .flatMap((pc) =>
      (pc.payments ?? []).flatMap((p) =>
        (p.refunds ?? []).map((r) => ({
          id: r.id,
          paymentId: p.id,
          amount: dec(amountString(r.amount)).toNumber(),
          createdAt: new Date(r.created_at).toISOString(),
          version: versionOf.get(r.id) ?? null,
          reasonLabel: r.refund_reason?.label ?? null,
        })),
      ),
    )
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
  const parts = refundCreditParts(
    refunds,
    (order.credit_lines ?? []).map((cl) => ({
      id: cl.id,
      amount: dec(amountString(cl.amount)).toNumber(),
      // Medusa copies credit lines into each new order version; created_in_version is where it was made
      version: creditLineVersion(cl),
      reference: cl.reference ?? null,
    })),
  )
  const tax = dec(amountString(order.tax_total)).toNumber()
  // a refund beyond what the order owes is booked as a credit line, lowering `total`: the tax part
  // is taken of the total before credit lines, so it does not depend on the refunds made so far
  const total = dec(amountString(order.total)).plus(amountString(order.credit_line_total)).toNumber()
  const store = filingStore(container)
  const out = []
  for (const r of refunds) {
    const unreturned = parts.get(r.id) ?? 0
    if (!(unreturned > 0)) continue
    const creditId = creditOrderId(r.id)
    const rec = await store.findRecord(creditId)
    // once filed, the credit's tax is what was filed (later returns and edits change the order's tax, not this refund)
    const filedTax = rec?.snapshot?.lines[0]?.chargedTax
    out.push({
      refundId: r.id,
      paymentId: r.paymentId,
      createdAt: r.createdAt,
      amount: r.amount,
      /** the part of it Medusa booked as a credit line when it was made (what the customer got back without returning anything) */
      unreturned,
      /** the tax in that part: unreturned × order tax ÷ order total before credit lines, to the cent; once filed, the tax filed */
      tax: creditTax(unreturned, tax, total, rec && typeof filedTax === "number" ? Math.abs(filedTax) : null),
      creditId,
      /** the credit's filing record's state, null when not filed */
      filing: rec?.state ?? null,
    })
  }
  return out
}

/** Files one refund without a return as a standalone credit (orderId = `credit_<refund id>`). */
export async function fileRefundAsCredit(container: MedusaContainer, orderId: string, refundId: string) {
  const refund = (await listManualRefunds(container, orderId)).find((r) => r.refundId === refundId)
  if (!refund) return null
  const options = getPluginOptions(container)
  const { record } = await orderRecordInput(container, orderId, options)
  if (!record.snapshot) return result(refund.creditId, null)
  const snapshot: FilingSnapshot = {
    ...record.snapshot,
    orderId: refund.creditId,
    kind: "credit",
    parentOrderId: orderId,
    cartId: null,
    placedAt: refund.createdAt,
    lines: [
      {
        index: 0,
        itemId: `refund:${refund.refundId}`,
        kind: "item",
        price: roundCents(dec(refund.unreturned).minus(refund.tax)),
        quantity: 1,
        tic: options.defaultTic,
        chargedTax: refund.tax,
        chargedRate:
          refund.unreturned - refund.tax > 0 ? Number(dec(refund.tax).div(dec(refund.unreturned).minus(refund.tax)).toFixed(4)) : 0,
        fallback: false,
      },
    ],
    credit: { refundId: refund.refundId, amount: refund.unreturned },
  }
  const rec = await filingProcessor(container).fileOrder(newRecordFor(refund.creditId, snapshot, "placed", new Date()))
  return result(refund.creditId, rec)
}

/** payment.refunded: with `manualRefunds: "credit"`, each refund without a return is filed as a credit at once. */
export async function onPaymentRefunded(container: MedusaContainer, paymentId: string): Promise<FilingResult[]> {
  const options = getPluginOptions(container)
  if (options.manualRefunds !== "credit") return []
  const orderId = await paymentOrderId(container, paymentId)
  if (!orderId) return []
  const out: FilingResult[] = []
  for (const r of await listManualRefunds(container, orderId)) {
    if (r.paymentId !== paymentId || r.filing) continue
    const res = await fileRefundAsCredit(container, orderId, r.refundId)
    if (res) out.push(res)
  }
  return out
}
