import type { Context } from "@medusajs/framework/types"
import { InjectTransactionManager, MedusaContext, MedusaService } from "@medusajs/framework/utils"
import { TicAssignment } from "./models/tic-assignment"
import { LastKnownRate } from "./models/last-known-rate"
import { CertificateOrigin } from "./models/certificate-origin"
import { CallLogEntry } from "./models/call-log"
import { NexusState } from "./models/nexus-state"
import { callLog, pruneInBatches, type CallLogRow, type CallLogSink } from "./call-log"
import { mergeKnownRate, registerRateMemory, type KnownRate, type RateMemory } from "./last-known-rates"
import { runProviderBootChecks } from "./boot-check"
import { servesRequests } from "../../core/serving"
import { ticAssignmentsChanged } from "./tic-generation"

export type TicTargetType = "product" | "product_type" | "product_category"
export const TIC_TARGET_TYPES: readonly TicTargetType[] = ["product", "product_type", "product_category"]

function checkTarget(targetType: string): asserts targetType is TicTargetType {
  if (!TIC_TARGET_TYPES.includes(targetType as TicTargetType)) {
    throw new Error(`targetType must be one of ${TIC_TARGET_TYPES.join(", ")}`)
  }
}

/**
 * TIC assignments, last-known rates and who created each certificate (module `salesTax`).
 * Generated CRUD: listTicAssignments, createTicAssignments, listLastKnownRates,
 * listCertificateOrigins, ...
 */
export type CertificateCreator = "customer" | "staff"

export class SalesTaxModuleService
  extends MedusaService({ TicAssignment, LastKnownRate, CertificateOrigin, CallLogEntry, NexusState })
  implements RateMemory, CallLogSink
{
  readonly #logger: { warn(m: string): void }

  constructor(...args: unknown[]) {
    super(...args)
    // the tax provider (in the Tax Module's container) reaches the table through this registration
    registerRateMemory(this)
    let logger: { warn(m: string): void } | undefined
    try {
      logger = (args[0] as { logger?: { warn(m: string): void } } | undefined)?.logger
    } catch {
      logger = undefined // a container without a logger
    }
    this.#logger = logger ?? console
    // the service-call log's buffer writes through this module (call-log.ts)
    callLog.attach(this, (m) => this.#logger.warn(m))
  }

  /** Medusa calls onApplicationStart once every module is loaded: the provider's boot checks run then (boot-check.ts). */
  __hooks = {
    onApplicationStart: async (): Promise<void> => {
      // the process that serves requests logs them; `medusa exec`, db:migrate, user… stay quiet (issue 30)
      if (!servesRequests()) return
      try {
        await runProviderBootChecks(this.#logger)
      } catch (e) {
        this.#logger.warn(`sales-tax: the start-up checks could not run (${(e as Error)?.message ?? e})`)
      }
    },
  }

  /** Keeps the highest rate per (zip, tic) in the window (mergeKnownRate). Best effort: a concurrent insert of the same key is skipped. */
  async rememberRates(rows: KnownRate[]): Promise<void> {
    if (!rows.length) return
    const zips = [...new Set(rows.map((r) => r.zip))]
    const existing = await this.listLastKnownRates({ zip: zips, tic: [...new Set(rows.map((r) => r.tic))] }, { take: null })
    const byKey = new Map(existing.map((e) => [`${e.zip}|${e.tic}`, e]))
    const updates = [] as { id: string; rate: string; quoted_at: Date }[]
    const creates = [] as { zip: string; tic: number; rate: string; quoted_at: Date }[]
    for (const r of rows) {
      const e = byKey.get(`${r.zip}|${r.tic}`)
      // the highest rate in the window is kept (mergeKnownRate: price thresholds)
      const kept = mergeKnownRate(e ? { zip: e.zip, tic: e.tic, rate: e.rate, quotedAt: new Date(e.quoted_at) } : undefined, r)
      if (!kept) continue
      if (e) updates.push({ id: e.id, rate: kept.rate, quoted_at: kept.quotedAt })
      else creates.push({ zip: r.zip, tic: r.tic, rate: kept.rate, quoted_at: kept.quotedAt })
    }
    if (updates.length) await this.updateLastKnownRates(updates)
    for (const c of creates) {
      try {
        await this.createLastKnownRates(c)
      } catch {
        /* created meanwhile by another quote: its rate is as recent */
      }
    }
  }

  async knownRates(zip: string, tics: number[], since: Date): Promise<KnownRate[]> {
    if (!tics.length) return []
    const rows = await this.listLastKnownRates(
      { zip, tic: [...new Set(tics)], quoted_at: { $gte: since } },
      {
        take: null,
      },
    )
    return rows.map((r) => ({ zip: r.zip, tic: r.tic, rate: r.rate, quotedAt: new Date(r.quoted_at) }))
  }

  /** Sets (or with null clears) the TIC of one target. */
  async setTic(
    targetType: TicTargetType,
    targetId: string,
    tic: number | null,
  ): Promise<{ target_type: TicTargetType; target_id: string; tic: number | null }> {
    checkTarget(targetType)
    if (!targetId) throw new Error("targetId is required")
    if (tic !== null && (!Number.isInteger(tic) || tic < 0)) throw new Error("tic must be a non-negative integer or null")
    // the tax-line hook's product TICs are read again at the next cart change (product-tic-cache.ts)
    ticAssignmentsChanged()
    const existing = await this.listTicAssignments({ target_type: targetType, target_id: targetId })
    if (tic === null) {
      if (existing.length) await this.deleteTicAssignments(existing.map((e) => e.id))
      return { target_type: targetType, target_id: targetId, tic: null }
    }
    if (existing.length) {
      await this.updateTicAssignments({ id: existing[0].id, tic })
      if (existing.length > 1) await this.deleteTicAssignments(existing.slice(1).map((e) => e.id))
    } else {
      await this.createTicAssignments({ target_type: targetType, target_id: targetId, tic })
    }
    return { target_type: targetType, target_id: targetId, tic }
  }

  /**
   * A bulk TIC import (src/tics): sets (or with null clears) the TIC of every target in ONE
   * transaction, so a failure leaves every TIC as it was. `onProgress` hears the targets written so far.
   */
  @InjectTransactionManager()
  async applyTicChanges(
    changes: { target_type: TicTargetType; target_id: string; tic: number | null }[],
    onProgress?: (done: number) => void,
    @MedusaContext() sharedContext: Context = {},
  ): Promise<void> {
    const BATCH = 500
    for (const c of changes) checkTarget(c.target_type)
    let done = 0
    for (let i = 0; i < changes.length; i += BATCH) {
      const part = changes.slice(i, i + BATCH)
      const existing = await this.listTicAssignments({ target_id: part.map((c) => c.target_id) }, { take: null }, sharedContext)
      const byKey = new Map(existing.map((e) => [`${e.target_type}|${e.target_id}`, e]))
      const deletes: string[] = []
      const updates: { id: string; tic: number }[] = []
      const creates: { target_type: TicTargetType; target_id: string; tic: number }[] = []
      for (const c of part) {
        const e = byKey.get(`${c.target_type}|${c.target_id}`)
        if (c.tic === null) {
          if (e) deletes.push(e.id)
        } else if (e) updates.push({ id: e.id, tic: c.tic })
        else creates.push({ target_type: c.target_type, target_id: c.target_id, tic: c.tic })
      }
      if (deletes.length) await this.deleteTicAssignments(deletes, sharedContext)
      if (updates.length) await this.updateTicAssignments(updates, sharedContext)
      if (creates.length) await this.createTicAssignments(creates, sharedContext)
      done += part.length
      onProgress?.(done)
    }
    ticAssignmentsChanged()
  }

  /** TICs of the given targets that have one: { [targetId]: tic }. */
  async getTics(targetType: TicTargetType, ids: string[]): Promise<Record<string, number>> {
    checkTarget(targetType)
    const uniq = [...new Set(ids.filter(Boolean))]
    if (!uniq.length) return {}
    const rows = await this.listTicAssignments({ target_type: targetType, target_id: uniq }, { take: null })
    const out: Record<string, number> = {}
    for (const r of rows) out[r.target_id] = r.tic
    return out
  }

  /** Records who created a certificate made through this store (customer or staff, and their id). */
  async recordCertificateOrigin(o: {
    certificateId: string
    customerId: string
    createdBy: CertificateCreator
    actorId: string | null
  }): Promise<void> {
    await this.createCertificateOrigins({
      certificate_id: o.certificateId,
      customer_id: o.customerId,
      created_by: o.createdBy,
      actor_id: o.actorId,
    })
  }

  /** Who created each of `certificateIds` ({ [certificateId]: "customer" | "staff" }; absent: made elsewhere). */
  async certificateCreators(certificateIds: string[]): Promise<Record<string, CertificateCreator>> {
    const ids = [...new Set(certificateIds.filter(Boolean))]
    if (!ids.length) return {}
    const rows = await this.listCertificateOrigins({ certificate_id: ids }, { take: null })
    const out: Record<string, CertificateCreator> = {}
    for (const r of rows) out[r.certificate_id] = r.created_by as CertificateCreator
    return out
  }

  /** The service-call log: a batch of attempts (call-log.ts buffers them off the request path). */
  async writeCallLog(rows: CallLogRow[]): Promise<void> {
    if (rows.length) await this.createCallLogEntries(rows)
  }

  /**
   * Deletes call-log entries older than `before` (for good: the log is not soft-deleted history),
   * their request and response bodies (`log.bodies`) with them; 1,000 ids a statement, oldest first.
   */
  async pruneCallLog(before: Date): Promise<number> {
    return pruneInBatches(
      async (limit) =>
        (await this.listCallLogEntries({ at: { $lt: before } }, { select: ["id"], take: limit, order: { at: "ASC" } })).map((o) => o.id),
      (ids) => this.deleteCallLogEntries(ids),
    )
  }
}

export default SalesTaxModuleService
