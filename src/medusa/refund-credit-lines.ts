/**
 * BOUNDARY: how Medusa books a refund (REFUND_BOOKKEEPING: a `refund` transaction, a credit line for what
 * exceeds the pending difference, copied into each order version). Buys: a refund without a return filed
 * as exactly the credit it booked (no public link from a refund to its credit line).
 * Contract test: refund-credit-lines.test.ts. Boot check: `refundBookkeepingDifferences`.
 */
import { installedSource } from "./installed"

/** The order transaction's reference for a refund (reference_id = the refund's id). */
export const REFUND_TRANSACTION_REFERENCE = "refund"

/** Pure: a refund's credit line's reference (no reason: "payment_collection"). */
export function refundCreditReference(reasonLabel: string | null | undefined): string {
  return reasonLabel ?? "payment_collection"
}

/** Pure: the order version a credit line was made in (Medusa copies it into each new version). */
export function creditLineVersion(cl: { version?: unknown; metadata?: { created_in_version?: unknown } | null }): number {
  return Number(cl.metadata?.created_in_version ?? cl.version ?? 0)
}

/** The lines of the three files the assumption rests on (whitespace-insensitive; a list: any of its forms). */
export const REFUND_BOOKKEEPING = {
  refundPayment: [
    'reference_id: refund.id, reference: "refund",',
    "const pendingDifference = order.summary?.raw_pending_difference ?? order.summary?.pending_difference ?? 0;",
    ["reference: data.refundReason?.label,", "reference: refundReason?.label,"],
    "create_order_refund_credit_lines_1.createOrderRefundCreditLinesWorkflow.runAsStep(",
  ],
  creditLines: ["action: utils_1.ChangeActionType.CREDIT_LINE_ADD,", 'reference: input.reference ?? "payment_collection",'],
  applyOrderChanges: ["{ ...(creditLine_.metadata ?? {}), created_in_version: version }"],
} as const

const flat = (s: string | undefined) => (s ?? "").replace(/\s+/g, " ")

export function refundBookkeepingDifferences(
  refundPayment: string | undefined = installedSource("@medusajs/core-flows", "payment/workflows/refund-payment.js"),
  creditLines: string | undefined = installedSource("@medusajs/core-flows", "order/workflows/payments/create-order-refund-credit-lines.js"),
  applyOrderChanges: string | undefined = installedSource("@medusajs/order", "utils/apply-order-changes.js"),
): string[] {
  const sources = { refundPayment: flat(refundPayment), creditLines: flat(creditLines), applyOrderChanges: flat(applyOrderChanges) }
  const out: string[] = []
  for (const [file, lines] of Object.entries(REFUND_BOOKKEEPING) as [keyof typeof sources, readonly (string | readonly string[])[]][])
    for (const line of lines) {
      const forms = typeof line === "string" ? [line] : line
      if (!forms.some((f) => sources[file].includes(flat(f)))) out.push(`${file}: \`${forms.join("` or `")}\` not found`)
    }
  return out
}
