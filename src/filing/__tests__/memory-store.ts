/**
 * In-memory FilingStore and lock with the same contract as the module service and Medusa's
 * Locking Module (unique order_id, unique idempotency_key, serialized work per key). For unit
 * tests and the soak test; not for production.
 */
import { randomUUID } from "node:crypto"
import type {
  FilingRecordDTO,
  FilingRefundDTO,
  FilingStore,
  NewRecord,
  NewRefund,
  RecordPatch,
  RefundPatch,
} from "../../modules/sales-tax-filing/types"

const clone = <T>(v: T): T => structuredClone(v)

export class MemoryFilingStore implements FilingStore {
  readonly records = new Map<string, FilingRecordDTO>()
  readonly refunds = new Map<string, FilingRefundDTO>()
  /** a hook run before every write (tests use it to simulate a crash) */
  beforeWrite?: (what: string) => void

  async findRecord(orderId: string): Promise<FilingRecordDTO | null> {
    const r = [...this.records.values()].find((x) => x.order_id === orderId)
    if (!r) return null
    const refunds = [...this.refunds.values()].filter((x) => x.record_id === r.id)
    return clone({ ...r, refunds })
  }

  async ensureRecord(input: NewRecord): Promise<{ record: FilingRecordDTO; created: boolean }> {
    const existing = await this.findRecord(input.order_id)
    if (existing) return { record: existing, created: false }
    this.beforeWrite?.("ensureRecord")
    const now = new Date()
    const rec: FilingRecordDTO = {
      id: `stfil_${randomUUID()}`,
      order_id: input.order_id,
      kind: input.kind,
      parent_order_id: input.parent_order_id ?? null,
      cart_id: input.cart_id,
      customer_id: input.customer_id,
      state: input.state ?? "pending",
      filing_path: null,
      completion_mode: input.completion_mode,
      snapshot: clone(input.snapshot),
      charged_tax: input.charged_tax,
      filed_tax: null,
      requoted_tax: null,
      tax_difference: null,
      filed_at: null,
      completion_requested_at: null,
      completed_at: null,
      cancel_requested_at: null,
      voided_at: null,
      attempts: 0,
      next_attempt_at: input.next_attempt_at,
      last_error: input.last_error ?? null,
      last_step: null,
      revision: 0,
      edits: null,
      created_at: new Date(now.getTime() + this.records.size / 1000),
      updated_at: now,
    }
    this.records.set(rec.id, rec)
    return { record: clone({ ...rec, refunds: [] }), created: true }
  }

  async patchRecord(id: string, patch: RecordPatch): Promise<void> {
    this.beforeWrite?.("patchRecord")
    const r = this.records.get(id)
    if (!r) throw new Error(`no record ${id}`)
    this.records.set(id, { ...r, ...clone(patch), updated_at: new Date() })
  }

  async ensureRefund(recordId: string, input: NewRefund): Promise<{ refund: FilingRefundDTO; created: boolean }> {
    const existing = [...this.refunds.values()].find((x) => x.idempotency_key === input.idempotency_key)
    if (existing) return { refund: clone(existing), created: false }
    this.beforeWrite?.("ensureRefund")
    const ref: FilingRefundDTO = {
      id: `stref_${randomUUID()}`,
      record_id: recordId,
      order_id: input.order_id,
      source_type: input.source_type,
      source_id: input.source_id,
      idempotency_key: input.idempotency_key,
      items: clone(input.items),
      state: "pending",
      refunded_tax: null,
      returned_at: input.returned_at,
      refunded_at: null,
      attempts: 0,
      last_error: null,
      created_at: new Date(Date.now() + this.refunds.size / 1000),
    }
    this.refunds.set(ref.id, ref)
    return { refund: clone(ref), created: true }
  }

  async patchRefund(id: string, patch: RefundPatch): Promise<void> {
    this.beforeWrite?.("patchRefund")
    const r = this.refunds.get(id)
    if (!r) throw new Error(`no refund ${id}`)
    this.refunds.set(id, { ...r, ...clone(patch) })
  }

  async listChildren(orderId: string): Promise<FilingRecordDTO[]> {
    const out: FilingRecordDTO[] = []
    const kids = [...this.records.values()]
      .filter((r) => r.parent_order_id === orderId)
      .sort((a, b) => (a.created_at?.getTime() ?? 0) - (b.created_at?.getTime() ?? 0))
    for (const r of kids) out.push((await this.findRecord(r.order_id))!)
    return out
  }

  async resumePaused(reason: string, now: Date): Promise<number> {
    let n = 0
    for (const [id, r] of this.records) {
      if (r.paused_reason !== reason || !r.next_attempt_at || r.next_attempt_at.getTime() <= now.getTime()) continue
      this.records.set(id, { ...r, next_attempt_at: new Date(now) })
      n++
    }
    return n
  }

  async listDue(now: Date, limit: number): Promise<string[]> {
    return [...this.records.values()]
      .filter((r) => r.next_attempt_at && r.next_attempt_at.getTime() <= now.getTime())
      .sort((a, b) => a.next_attempt_at!.getTime() - b.next_attempt_at!.getTime())
      .slice(0, limit)
      .map((r) => r.order_id)
  }
}

/** A per-key mutex: jobs on the same key run one after the other. */
export function memoryLock(): <T>(key: string, fn: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>()
  return <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const prev = tails.get(key) ?? Promise.resolve()
    const run = prev.then(fn, fn)
    const tail = run.then(
      () => undefined,
      () => undefined,
    )
    tails.set(key, tail)
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key)
    })
    return run
  }
}
