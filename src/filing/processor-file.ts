/**
 * Filing a record's snapshot at the service: the cart path (re-quote, compare, convert) or the
 * direct path (the tax as charged per line), a refused certificate's fallback, a single-purchase
 * certificate's use, and what is written once the order is at the service.
 */
import type { OrderRecord } from "../service/contract"
import type { FilingRecordDTO, FilingSnapshot } from "../modules/sales-tax-filing/types"
import {
  chargedTotal,
  compareLines,
  completionAtFiling,
  directOrderRequest,
  mustFileDirect,
  requotesAtFiling,
  filedStep,
  orderTaxTotal,
  requoteRequest,
  sanitizeError,
} from "./decisions"
import { dec } from "../money"
import { refusesCertificate } from "../checkout/exemptions/exemptions"
import { ProcessorBase } from "./processor-base"
import { statusOf, type FilingClient } from "./processor-types"

export abstract class OrderFiler extends ProcessorBase {
  /**
   * Files a snapshot. A certificate the service refuses (disabled or removed after the sale) never
   * fails the filing: the order is filed again without the certificate reference, directly, with
   * the tax as charged per line (0 on the exempt lines), so what is filed is what was charged.
   */
  protected async file(rec: FilingRecordDTO, s: FilingSnapshot): Promise<FilingRecordDTO> {
    let filed: FilingRecordDTO
    try {
      filed = await this.fileAs(rec, s, false)
    } catch (e) {
      if (!s.exemptionId || !refusesCertificate(e)) throw e
      this.deps.logger?.warn(
        `sales-tax filing: ${s.orderId}: the service refused exemption certificate ${s.exemptionId} (disabled or removed after the sale); filed with the tax as charged per line, without the certificate reference`,
      )
      return this.fileAs(rec, { ...s, exemptionId: null }, true)
    }
    if (s.exemptionId) await this.useSinglePurchase(filed, s)
    return filed
  }

  /**
   * Whether the snapshot's certificate can still be referenced (no certificate: yes). A client
   * that cannot read certificates answers yes (file()'s fallback still files what was charged);
   * a failure to read it is thrown (retried later: nothing was voided).
   */
  protected async certificateUsable(s: FilingSnapshot, client: FilingClient): Promise<boolean> {
    if (!s.exemptionId || !client.getCertificate) return true
    try {
      const cert = await client.getCertificate(s.exemptionId)
      return !cert.disabledAt
    } catch (e) {
      if (statusOf(e) === 404) return false
      throw e
    }
  }

  /**
   * After an order (the Medusa order's own record) is filed under a single-purchase certificate:
   * the certificate is disabled at the service (it exempted its one order) and recorded as used by
   * it. Idempotent: a disabled certificate is not disabled again, and the first order stays its
   * user. Best effort: a failure is logged and never fails the filing.
   */
  protected async useSinglePurchase(rec: FilingRecordDTO, s: FilingSnapshot): Promise<void> {
    const client = this.clientOf(s)
    if (!s.exemptionId || rec.kind !== "order" || rec.parent_order_id || !client.getCertificate || !client.disableCertificate) return
    try {
      const cert = await client.getCertificate(s.exemptionId)
      if (!cert.singlePurchase) return
      if (!cert.disabledAt) await client.disableCertificate(s.exemptionId)
      await this.deps.certificateUsed?.({ certificateId: s.exemptionId, orderId: rec.order_id, customerId: cert.customerId ?? null })
    } catch (e) {
      this.deps.logger?.warn(
        `sales-tax filing: ${rec.order_id}: single-purchase certificate ${s.exemptionId} could not be marked used (${sanitizeError(e, this.deps.secrets ?? [])})`,
      )
    }
  }

  protected async fileAs(rec: FilingRecordDTO, s: FilingSnapshot, direct: boolean): Promise<FilingRecordDTO> {
    const client = this.clientOf(s)
    const forced = direct || mustFileDirect(s)
    let cmp: ReturnType<typeof compareLines> | null = null
    if (requotesAtFiling(s, direct)) {
      const quote = await client.calculateCarts(requoteRequest(s))
      const cart = quote.items.find((c) => c.cartId === s.cartId) ?? quote.items[0]
      cmp = compareLines(s.lines, cart?.lineItems ?? [])
    }
    const completion = completionAtFiling(rec, s)
    if (!forced && cmp?.equal) {
      const r = await client.cartToOrder({
        cartId: s.cartId!,
        orderId: s.orderId,
        completed: completion.completed,
        ...(completion.completed && completion.completedDate ? { completedDate: completion.completedDate } : {}),
      })
      // the cart may have moved between the re-quote and the conversion: the filed tax must be the charged tax
      if (!r.alreadyExisted && !dec(orderTaxTotal(r.order)).eq(chargedTotal(s.lines))) {
        this.deps.logger?.warn(`sales-tax filing: ${s.orderId} converted with a different tax; voiding and filing the charged tax`)
        await client.voidOrder(s.orderId)
      } else {
        this.deps.onFiled?.({ orderId: s.orderId, path: "cart", alreadyExisted: r.alreadyExisted })
        return this.markFiled(rec, r.order, "cart", cmp)
      }
    }
    const r = await client.createOrder(directOrderRequest(s, completion, s.placedAt))
    this.deps.onFiled?.({ orderId: s.orderId, path: "direct", alreadyExisted: r.alreadyExisted })
    return this.markFiled(rec, r.order, "direct", cmp)
  }

  protected async markFiled(
    rec: FilingRecordDTO,
    order: OrderRecord,
    path: "cart" | "direct",
    cmp: ReturnType<typeof compareLines> | null,
  ): Promise<FilingRecordDTO> {
    return this.patch(rec, {
      filed_at: this.now(),
      filing_path: path,
      filed_tax: orderTaxTotal(order),
      requoted_tax: cmp ? cmp.quotedTotal : rec.requoted_tax,
      tax_difference: cmp ? (cmp.equal ? 0 : cmp.difference) : rec.tax_difference,
      completed_at: order.completedDate ? new Date(order.completedDate) : null,
      last_step: filedStep(rec.snapshot),
    })
  }
}
