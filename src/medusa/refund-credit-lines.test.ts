/** Contract: Medusa books a refund as the filing of refunds without a return reads it (refund-credit-lines.ts). */
import { refundPaymentWorkflowId } from "@medusajs/core-flows"
import { installedSource } from "./installed"
import { creditLineVersion, refundBookkeepingDifferences, refundCreditReference } from "./refund-credit-lines"

describe("contract: refundPaymentWorkflow's bookkeeping", () => {
  it("the installed core-flows and Order Module book a refund as assumed", () => {
    expect(refundPaymentWorkflowId).toBe("refund-payment-workflow")
    expect(refundBookkeepingDifferences()).toEqual([])
  })

  it("a changed default reference, or credit lines no longer stamped with their version, is named", () => {
    const creditLines = installedSource("@medusajs/core-flows", "order/workflows/payments/create-order-refund-credit-lines.js")!
    const apply = installedSource("@medusajs/order", "utils/apply-order-changes.js")!
    expect(
      refundBookkeepingDifferences(
        undefined,
        creditLines.replace('?? "payment_collection"', '?? "refund"'),
        apply.replace("created_in_version: version", "v: version"),
      ),
    ).toEqual([
      'creditLines: `reference: input.reference ?? "payment_collection",` not found',
      "applyOrderChanges: `{ ...(creditLine_.metadata ?? {}), created_in_version: version }` not found",
    ])
    expect(refundBookkeepingDifferences("", "", "")).toHaveLength(7)
  })

  it("2.15's refund workflow (the credit line's reference read without a transform) books the same", () => {
    const refund = installedSource("@medusajs/core-flows", "payment/workflows/refund-payment.js")!
    const as215 = refund.replace("reference: data.refundReason?.label,", "reference: refundReason?.label,")
    expect(as215).not.toBe(refund)
    expect(refundBookkeepingDifferences(as215)).toEqual([])
    expect(refundBookkeepingDifferences(refund.replace("reference: data.refundReason?.label,", "reference: undefined,"))).toEqual([
      "refundPayment: `reference: data.refundReason?.label,` or `reference: refundReason?.label,` not found",
    ])
  })

  it("a credit line's reference and version as Medusa writes them", () => {
    expect(refundCreditReference(null)).toBe("payment_collection")
    expect(refundCreditReference("Damaged")).toBe("Damaged")
    expect(creditLineVersion({ version: 5, metadata: { created_in_version: 3 } })).toBe(3)
    expect(creditLineVersion({ version: 5, metadata: null })).toBe(5)
    expect(creditLineVersion({})).toBe(0)
  })
})
