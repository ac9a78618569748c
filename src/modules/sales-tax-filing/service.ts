import type { InferTypeOf } from "@medusajs/framework/types"
import { MedusaService } from "@medusajs/framework/utils"
import { amountNumber } from "../../money"
import { FilingRecord } from "./models/filing-record"
import { FilingRefund } from "./models/filing-refund"
import { withoutStreet } from "./retention"
import type {
  EditIntent,
  FilingRecordDTO,
  FilingRefundDTO,
  FilingSnapshot,
  FilingStore,
  NewRecord,
  NewRefund,
  RecordPatch,
  RefundItem,
  RefundPatch,
} from "./types"

const RESUME_BATCH = 1000
const STREET_BATCH = 500

/** A row as the generated CRUD returns it. */
type RecordRow = InferTypeOf<typeof FilingRecord>
type RefundRow = InferTypeOf<typeof FilingRefund>

function isUniqueViolation(e: unknown): boolean {
  const err = e as { type?: string; code?: string; message?: string }
  return err?.type === "duplicate_error" || err?.code === "23505" || /already exists|duplicate key|unique/i.test(err?.message ?? "")
}

/** A value for a json column: Medusa types `model.json()` as Record<string, unknown>, though it stores any JSON (arrays too). */
function json(v: object): Record<string, unknown>
function json(v: object | null): Record<string, unknown> | null
function json(v: object | null): Record<string, unknown> | null {
  return v as Record<string, unknown> | null
}

/** A json column's value as the plugin wrote it (see `json`). */
function fromJson<T extends object>(v: Record<string, unknown> | null): T | null {
  return v as unknown as T | null
}

/** A record's columns with its json values typed as Medusa's CRUD takes them. */
function recordColumns<T extends { snapshot?: FilingSnapshot | null; edits?: EditIntent[] | null }>(r: T) {
  const { snapshot, edits, ...rest } = r
  return {
    ...rest,
    ...(snapshot !== undefined ? { snapshot: json(snapshot) } : {}),
    ...(edits !== undefined ? { edits: json(edits) } : {}),
  }
}

function toRefund(r: RefundRow): FilingRefundDTO {
  const { refunded_tax, items, ...rest } = r
  return {
    ...rest,
    refunded_tax: amountNumber(refunded_tax),
    items: fromJson<RefundItem[]>(items) ?? [],
  }
}

function toRecord(r: RecordRow): FilingRecordDTO {
  const { refunds, snapshot, edits, charged_tax, filed_tax, requoted_tax, tax_difference, ...rest } = r
  return {
    ...rest,
    snapshot: fromJson<FilingSnapshot>(snapshot),
    edits: fromJson<EditIntent[]>(edits),
    charged_tax: amountNumber(charged_tax),
    filed_tax: amountNumber(filed_tax),
    requoted_tax: amountNumber(requoted_tax),
    tax_difference: amountNumber(tax_difference),
    refunds: Array.isArray(refunds) ? refunds.map(toRefund) : [],
  }
}

/** Filing records (one per filed order) and their refunds: the filing processor's FilingStore on the generated CRUD. */
export default class SalesTaxFilingModuleService extends MedusaService({ FilingRecord, FilingRefund }) implements FilingStore {
  async findRecord(orderId: string): Promise<FilingRecordDTO | null> {
    const [rec] = await this.listFilingRecords({ order_id: orderId }, { relations: ["refunds"], take: 1 })
    return rec ? toRecord(rec) : null
  }

  async ensureRecord(input: NewRecord): Promise<{ record: FilingRecordDTO; created: boolean }> {
    const existing = await this.findRecord(input.order_id)
    if (existing) return { record: existing, created: false }
    try {
      await this.createFilingRecords(recordColumns(input))
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
    await this.updateFilingRecords({ id, ...recordColumns(patch) })
  }

  async ensureRefund(recordId: string, input: NewRefund): Promise<{ refund: FilingRefundDTO; created: boolean }> {
    const find = async () => {
      const [r] = await this.listFilingRefunds({ idempotency_key: input.idempotency_key }, { take: 1 })
      return r ? toRefund(r) : null
    }
    const existing = await find()
    if (existing) return { refund: existing, created: false }
    try {
      // record_id: the foreign key the CRUD stores (Medusa's input type names only the relation, `record`)
      const row = { ...input, items: json(input.items), record_id: recordId }
      await this.createFilingRefunds(row)
    } catch (e) {
      if (!isUniqueViolation(e)) throw e
      const r = await find()
      if (r) return { refund: r, created: false }
      throw e
    }
    return { refund: (await find())!, created: true }
  }

  async patchRefund(id: string, patch: RefundPatch): Promise<void> {
    const { items, ...rest } = patch
    await this.updateFilingRefunds({ id, ...rest, ...(items !== undefined ? { items: json(items) } : {}) })
  }

  async listChildren(orderId: string): Promise<FilingRecordDTO[]> {
    const rows = await this.listFilingRecords({ parent_order_id: orderId }, { relations: ["refunds"], order: { created_at: "ASC" } })
    return rows.map((r) => toRecord(r))
  }

  async resumePaused(reason: string, now: Date): Promise<number> {
    let n = 0
    // in bounded batches: a long key outage may have paused many records
    for (;;) {
      const rows = await this.listFilingRecords(
        { paused_reason: reason, next_attempt_at: { $gt: now } },
        { select: ["id"], take: RESUME_BATCH, order: { id: "ASC" } },
      )
      if (!rows.length) return n
      await this.updateFilingRecords(rows.map((r) => ({ id: r.id, next_attempt_at: now })))
      n += rows.length
      if (rows.length < RESUME_BATCH) return n
    }
  }

  /** Removes the street lines of every record created before `before`, in batches, oldest first; returns how many. */
  async removeStreetLines(before: Date, now: Date): Promise<number> {
    let n = 0
    for (;;) {
      const rows = await this.listFilingRecords(
        { created_at: { $lt: before }, address_removed_at: null },
        { select: ["id", "snapshot"], take: STREET_BATCH, order: { created_at: "ASC" } },
      )
      if (!rows.length) return n
      await this.updateFilingRecords(
        rows.map((r) => ({ id: r.id, snapshot: json(withoutStreet(fromJson<FilingSnapshot>(r.snapshot))), address_removed_at: now })),
      )
      n += rows.length
      if (rows.length < STREET_BATCH) return n
    }
  }

  async listDue(now: Date, limit: number): Promise<string[]> {
    const rows = await this.listFilingRecords(
      { next_attempt_at: { $lte: now } },
      {
        select: ["order_id", "next_attempt_at"],
        take: limit,
        order: { next_attempt_at: "ASC" },
      },
    )
    return rows.map((r) => r.order_id)
  }
}
