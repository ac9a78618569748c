import { MedusaService } from "@medusajs/framework/utils"
import { FilingRecord } from "./models/filing-record"
import { FilingRefund } from "./models/filing-refund"
import type { FilingRecordDTO, FilingRefundDTO, FilingStore, NewRecord, NewRefund, RecordPatch, RefundPatch } from "./types"

function isUniqueViolation(e: unknown): boolean {
  const err = e as { type?: string; code?: string; message?: string }
  return err?.type === "duplicate_error" || err?.code === "23505" || /already exists|duplicate key|unique/i.test(err?.message ?? "")
}

function num(v: unknown): number | null {
  if (v === null || v === undefined) return null
  if (typeof v === "number") return v
  if (typeof v === "string") return Number(v)
  const n = (v as { numeric?: number; value?: string }).numeric
  return typeof n === "number" ? n : Number((v as { value?: string }).value ?? NaN)
}

function toRefund(r: Record<string, unknown>): FilingRefundDTO {
  return {
    ...(r as unknown as FilingRefundDTO),
    refunded_tax: num(r.refunded_tax),
    items: (r.items as FilingRefundDTO["items"]) ?? [],
  }
}

function toRecord(r: Record<string, unknown>): FilingRecordDTO {
  const refunds = Array.isArray(r.refunds) ? (r.refunds as Record<string, unknown>[]).map(toRefund) : []
  return {
    ...(r as unknown as FilingRecordDTO),
    charged_tax: num(r.charged_tax),
    filed_tax: num(r.filed_tax),
    requoted_tax: num(r.requoted_tax),
    tax_difference: num(r.tax_difference),
    refunds,
  }
}

/**
 * Filing records (one per filed order) and their refunds, in the plugin's own tables.
 * Implements FilingStore for the filing processor on top of the generated CRUD.
 */
export default class SalesTaxFilingModuleService extends MedusaService({ FilingRecord, FilingRefund }) implements FilingStore {
  async findRecord(orderId: string): Promise<FilingRecordDTO | null> {
    const [rec] = await this.listFilingRecords({ order_id: orderId }, { relations: ["refunds"], take: 1 })
    return rec ? toRecord(rec as unknown as Record<string, unknown>) : null
  }

  async ensureRecord(input: NewRecord): Promise<{ record: FilingRecordDTO; created: boolean }> {
    const existing = await this.findRecord(input.order_id)
    if (existing) return { record: existing, created: false }
    try {
      await this.createFilingRecords(input as never)
    } catch (e) {
      if (!isUniqueViolation(e)) throw e
      const rec = await this.findRecord(input.order_id)
      if (rec) return { record: rec, created: false }
      throw e
    }
    const rec = await this.findRecord(input.order_id)
    return { record: rec!, created: true }
  }

  async patchRecord(id: string, patch: RecordPatch): Promise<void> {
    await this.updateFilingRecords({ id, ...patch } as never)
  }

  async ensureRefund(recordId: string, input: NewRefund): Promise<{ refund: FilingRefundDTO; created: boolean }> {
    const find = async () => {
      const [r] = await this.listFilingRefunds({ idempotency_key: input.idempotency_key }, { take: 1 })
      return r ? toRefund(r as unknown as Record<string, unknown>) : null
    }
    const existing = await find()
    if (existing) return { refund: existing, created: false }
    try {
      await this.createFilingRefunds({ ...input, record_id: recordId } as never)
    } catch (e) {
      if (!isUniqueViolation(e)) throw e
      const r = await find()
      if (r) return { refund: r, created: false }
      throw e
    }
    return { refund: (await find())!, created: true }
  }

  async patchRefund(id: string, patch: RefundPatch): Promise<void> {
    await this.updateFilingRefunds({ id, ...patch } as never)
  }

  async listChildren(orderId: string): Promise<FilingRecordDTO[]> {
    const rows = await this.listFilingRecords({ parent_order_id: orderId }, { relations: ["refunds"], order: { created_at: "ASC" } })
    return rows.map((r) => toRecord(r as unknown as Record<string, unknown>))
  }

  async listDue(now: Date, limit: number): Promise<string[]> {
    const rows = await this.listFilingRecords({ next_attempt_at: { $lte: now } } as never, {
      select: ["order_id", "next_attempt_at"],
      take: limit,
      order: { next_attempt_at: "ASC" },
    })
    return rows.map((r) => (r as unknown as { order_id: string }).order_id)
  }
}
