import { MedusaService } from "@medusajs/framework/utils"
import { amountNumber } from "../../money/amount"
import { pruneInBatches } from "../../service/call-log"
import { FilingRecord } from "./models/filing-record"
import { FilingRefund } from "./models/filing-refund"
import { withoutStreet } from "./retention"
import type { FilingRecordDTO, FilingRefundDTO, FilingStore, NewRecord, NewRefund, RecordPatch, RefundPatch } from "./types"
import type { RecordRow, RefundRow } from "./types"

/** Medusa types `model.json()` as a record, though it stores any JSON: the plugin's shapes go in and come out as such. */
type Json = Record<string, unknown>
const json = (v: object | null | undefined) => v as Json | null

/** Creation that is idempotent under a race: the row found, else created, else (a unique violation) found again. */
async function ensure<T>(find: () => Promise<T | null>, create: () => Promise<unknown>): Promise<{ row: T; created: boolean }> {
  const existing = await find()
  if (existing) return { row: existing, created: false }
  try {
    await create()
  } catch (e) {
    const err = e as { type?: string; code?: string; message?: string }
    const unique =
      err?.type === "duplicate_error" || err?.code === "23505" || /already exists|duplicate key|unique/i.test(err?.message ?? "")
    const row = unique ? await find() : null
    if (row) return { row, created: false }
    throw e
  }
  return { row: (await find())!, created: true }
}

/** A record's columns with its json values as Medusa's CRUD takes them. */
function recordColumns<T extends Pick<RecordPatch, "snapshot" | "edits">>({ snapshot, edits, ...rest }: T) {
  return {
    ...rest,
    ...(snapshot !== undefined ? { snapshot: json(snapshot) } : {}),
    ...(edits !== undefined ? { edits: json(edits) } : {}),
  }
}

const toRefund = ({ refunded_tax, items, ...rest }: RefundRow): FilingRefundDTO => ({
  ...rest,
  refunded_tax: amountNumber(refunded_tax),
  items: (items as unknown as FilingRefundDTO["items"] | null) ?? [],
})

function toRecord(r: RecordRow): FilingRecordDTO {
  const { refunds, snapshot, edits, charged_tax, filed_tax, requoted_tax, tax_difference, ...rest } = r
  return {
    ...rest,
    snapshot: snapshot as unknown as FilingRecordDTO["snapshot"],
    edits: edits as unknown as FilingRecordDTO["edits"],
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
    const find = () => this.findRecord(input.order_id)
    const { row, created } = await ensure(find, () => this.createFilingRecords(recordColumns(input)))
    return { record: row, created }
  }

  async patchRecord(id: string, patch: RecordPatch): Promise<void> {
    await this.updateFilingRecords({ id, ...recordColumns(patch) })
  }

  async ensureRefund(recordId: string, input: NewRefund): Promise<{ refund: FilingRefundDTO; created: boolean }> {
    const find = async () => {
      const [r] = await this.listFilingRefunds({ idempotency_key: input.idempotency_key }, { take: 1 })
      return r ? toRefund(r) : null
    }
    // record_id: the foreign key the CRUD stores (Medusa's input type names only the relation, `record`)
    const { row, created } = await ensure(find, () =>
      this.createFilingRefunds({ ...input, items: json(input.items)!, record_id: recordId }),
    )
    return { refund: row, created }
  }

  async patchRefund(id: string, { items, ...rest }: RefundPatch): Promise<void> {
    await this.updateFilingRefunds({ id, ...rest, ...(items !== undefined ? { items: json(items)! } : {}) })
  }

  async listChildren(orderId: string): Promise<FilingRecordDTO[]> {
    const rows = await this.listFilingRecords({ parent_order_id: orderId }, { relations: ["refunds"], order: { created_at: "ASC" } })
    return rows.map(toRecord)
  }

  /** In bounded batches: a long key outage may have paused many records. */
  async resumePaused(reason: string, now: Date): Promise<number> {
    const paused = { paused_reason: reason, next_attempt_at: { $gt: now } }
    return pruneInBatches(
      async (take) => (await this.listFilingRecords(paused, { select: ["id"], take, order: { id: "ASC" } })).map((r) => r.id),
      (ids) => this.updateFilingRecords(ids.map((id) => ({ id, next_attempt_at: now }))).then(() => undefined),
      1000,
    )
  }

  /** Removes the street lines of every record created before `before`, in batches, oldest first; returns how many. */
  async removeStreetLines(before: Date, now: Date): Promise<number> {
    let rows: RecordRow[] = []
    return pruneInBatches(
      async (take) => {
        rows = await this.listFilingRecords(
          { created_at: { $lt: before }, address_removed_at: null },
          { select: ["id", "snapshot"], take, order: { created_at: "ASC" } },
        )
        return rows.map((r) => r.id)
      },
      async () => {
        const snapshot = (r: RecordRow) => json(withoutStreet(r.snapshot as unknown as FilingRecordDTO["snapshot"]))
        await this.updateFilingRecords(rows.map((r) => ({ id: r.id, snapshot: snapshot(r), address_removed_at: now })))
      },
      500,
    )
  }

  async listDue(now: Date, limit: number): Promise<string[]> {
    const rows = await this.listFilingRecords(
      { next_attempt_at: { $lte: now } },
      { select: ["order_id", "next_attempt_at"], take: limit, order: { next_attempt_at: "ASC" } },
    )
    return rows.map((r) => r.order_id)
  }
}
