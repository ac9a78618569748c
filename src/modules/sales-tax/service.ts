import type { Context, InferTypeOf } from "@medusajs/framework/types"
import { InjectTransactionManager, MedusaContext, MedusaService } from "@medusajs/framework/utils"
import { TicAssignment } from "./models/tic-assignment"
import { LastKnownRate } from "./models/last-known-rate"
import { CertificateOrigin } from "./models/certificate-origin"
import { CallLogEntry } from "./models/call-log"
import { NexusState } from "./models/nexus-state"
import { callLog, pruneInBatches, type CallLogRow, type CallLogSink } from "../../service/call-log"
import { mergeKnownRate, registerRateMemory, type KnownRate, type RateMemory } from "../../service/last-known-rates"
import { pgConnectionOf } from "../../medusa/order-sales-by-state"
import { servesRequests } from "../../core/serving"
import { ticAssignmentsChanged } from "../../service/tics/product-tic-cache"
import { TIC_TARGET_TYPES, type TargetTic, type TicModule, type TicTargetType } from "../../service/tics/product-tics"
import { fromCradle, runtimeFromDeps, type SalesTaxRuntime } from "../../runtime"
import { randomUUID } from "node:crypto"
import { registerCertificateReviews, type CertificateReviews, type CertificateUses } from "../../service/exemptions/registry"

import {
  isPlaceholder,
  LOST_PREFIX,
  RESERVED_PREFIX,
  type CertificateStanding,
  type PlaceholderRow,
  type ReviewStatus,
} from "../../service/exemptions/certificate-claims"

type OriginRow = InferTypeOf<typeof CertificateOrigin>

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null)

/** { [certificateId]: standing } of `rows`, with a null prototype (as getTics). */
function standingsOf(rows: OriginRow[]): Record<string, CertificateStanding> {
  const out: Record<string, CertificateStanding> = Object.create(null)
  for (const r of rows) {
    out[r.certificate_id] = {
      createdBy: r.created_by,
      reviewStatus: r.review_status,
      rejectionReason: r.rejection_reason,
      reviewedAt: iso(r.reviewed_at),
      usedOrderId: r.used_order_id,
      usedAt: iso(r.used_at),
      claimedCartId: r.claimed_cart_id ?? null,
      claimedAt: iso(r.claimed_at),
    }
  }
  return out
}

/** A target whose TIC was not what a change expected: the TIC it has `now`. */
export type MovedTic = Omit<TargetTic, "tic"> & { now: number | null }

function checkTarget(targetType: string): asserts targetType is TicTargetType {
  if (!TIC_TARGET_TYPES.includes(targetType as TicTargetType)) {
    throw new Error(`targetType must be one of ${TIC_TARGET_TYPES.join(", ")}`)
  }
}

/** TIC assignments, last-known rates, who created each certificate, the call log and nexus states (module `salesTax`). */
export class SalesTaxModuleService
  extends MedusaService({ TicAssignment, LastKnownRate, CertificateOrigin, CallLogEntry, NexusState })
  implements RateMemory, CallLogSink, CertificateReviews, CertificateUses, TicModule
{
  readonly #logger: { warn(m: string): void }
  /** The plugin's runtime (src/runtime.ts), registered in this module's container by its loader; Medusa's container reaches it here (runtimeOf). */
  readonly runtime: SalesTaxRuntime
  readonly #cradle: Record<string, unknown> | undefined

  constructor(...args: unknown[]) {
    super(...args)
    this.runtime = runtimeFromDeps(args[0])
    // the tax provider (in the Tax Module's container) reaches the rates and the reviews through these
    registerRateMemory(this, this.runtime)
    registerCertificateReviews(this, this.runtime)
    this.#logger = (fromCradle(args[0], "logger") as { warn(m: string): void } | undefined) ?? console
    this.#cradle = args[0] as Record<string, unknown> | undefined
    callLog.attach(this, (m) => this.#logger.warn(m))
  }

  __hooks = {
    // before Medusa closes the database connections: the call log's buffer is written then
    onApplicationPrepareShutdown: async (): Promise<void> => callLog.close(this),
    onApplicationStart: async (): Promise<void> => {
      // the process that serves requests logs them; `medusa exec`, db:migrate, user… stay quiet
      if (!servesRequests(this.runtime)) return
      try {
        // required here, not at load: the checks pull in core-flows, the HTTP layer and the modules SDK
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { runProviderBootChecks } = require("../../medusa/boot-check") as typeof import("../../medusa/boot-check")
        await runProviderBootChecks(this.#logger, undefined, pgConnectionOf(this.#cradle))
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
    const rows = await this.listLastKnownRates({ zip, tic: [...new Set(tics)], quoted_at: { $gte: since } }, { take: null })
    return rows.map((r) => ({ zip: r.zip, tic: r.tic, rate: r.rate, quotedAt: new Date(r.quoted_at) }))
  }

  async setTic(targetType: TicTargetType, targetId: string, tic: number | null): Promise<TargetTic> {
    if (!targetId) throw new Error("targetId is required")
    if (tic !== null && (!Number.isInteger(tic) || tic < 0)) throw new Error("tic must be a non-negative integer or null")
    await this.applyTicChanges([{ target_type: targetType, target_id: targetId, tic }])
    return { target_type: targetType, target_id: targetId, tic }
  }

  /** Sets (null: clears) TICs in ONE transaction; a change naming `from` applies only while the TIC is still that, else it is returned. */
  @InjectTransactionManager()
  async applyTicChanges(
    changes: (TargetTic & { from?: number | null })[],
    onProgress?: (done: number) => void,
    @MedusaContext() sharedContext: Context = {},
  ): Promise<MovedTic[]> {
    const moved: MovedTic[] = []
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
        if (c.from !== undefined && (e?.tic ?? null) !== c.from) {
          moved.push({ target_type: c.target_type, target_id: c.target_id, now: e?.tic ?? null })
          continue
        }
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
    ticAssignmentsChanged(this.runtime)
    return moved
  }

  /** TICs of the given targets that have one: { [targetId]: tic }. */
  async getTics(targetType: TicTargetType, ids: string[]): Promise<Record<string, number>> {
    checkTarget(targetType)
    const uniq = [...new Set(ids.filter(Boolean))]
    if (!uniq.length) return {}
    const rows = await this.listTicAssignments({ target_type: targetType, target_id: uniq }, { take: null })
    // null prototype: a lookup by any id (`constructor` too) finds only what was read
    const out: Record<string, number> = Object.create(null)
    for (const r of rows) out[r.target_id] = r.tic
    return out
  }

  /** A customer's submission in flight: a pending row made before the certificate exists at the service, so it never exempts without one. */
  async reserveCertificate(customerId: string): Promise<string> {
    const row = await this.createCertificateOrigins({
      certificate_id: `${RESERVED_PREFIX}${randomUUID()}`,
      customer_id: customerId,
      created_by: "customer",
      actor_id: customerId,
      review_status: "pending",
    })
    return row.id
  }

  /** The reserved row becomes the certificate's (pending under review, approved under "immediate"). */
  async settleReservation(rowId: string, certificateId: string, reviewStatus: ReviewStatus): Promise<void> {
    await this.updateCertificateOrigins({
      id: rowId,
      certificate_id: certificateId,
      review_status: reviewStatus,
      ...(reviewStatus === "approved" ? { reviewed_at: new Date(), reviewed_by: null } : {}),
    })
  }

  /** The submission's answer was lost: its placeholder stays (pending) until the certificate is seen and adopted. */
  async markReservationLost(rowId: string): Promise<void> {
    await this.updateCertificateOrigins({ id: rowId, certificate_id: `${LOST_PREFIX}${randomUUID()}` })
  }

  /** A customer's placeholders (submissions in flight or lost), oldest first. */
  async placeholders(customerId: string): Promise<PlaceholderRow[]> {
    const rows = await this.listCertificateOrigins({ customer_id: customerId }, { take: null })
    return rows
      .filter((r) => isPlaceholder(r.certificate_id))
      .map((r) => ({ id: r.id, certificateId: r.certificate_id, createdAt: new Date(r.created_at ?? 0) }))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
  }

  /** A lost submission's placeholder becomes the certificate's row: the customer's, pending review. */
  async adoptPlaceholder(rowId: string, certificateId: string): Promise<void> {
    await this.updateCertificateOrigins({ id: rowId, certificate_id: certificateId, review_status: "pending", reviewed_at: null })
  }

  async #origin(certificateId: string): Promise<OriginRow | undefined> {
    return (await this.listCertificateOrigins({ certificate_id: certificateId }, { take: 1 }))[0]
  }

  /** A certificate staff created for a customer: approved (`patch`: who). A certificate made elsewhere gets such a row too. */
  async recordStaffCertificate(certificateId: string, customerId: string, patch: Partial<OriginRow>): Promise<void> {
    await this.createCertificateOrigins({
      certificate_id: certificateId,
      customer_id: customerId,
      created_by: "staff",
      actor_id: null,
      review_status: "approved",
      ...patch,
    })
  }

  /** Patches the certificate's row, or makes a staff row to carry the patch. */
  async #upsertOrigin(certificateId: string, customerId: string, patch: Partial<OriginRow>, row?: OriginRow): Promise<void> {
    row ??= await this.#origin(certificateId)
    if (row) await this.updateCertificateOrigins({ id: row.id, ...patch })
    else await this.recordStaffCertificate(certificateId, customerId, patch)
  }

  /** A single-purchase certificate claimed by `cartId` at completion (the caller holds the certificate's lock: claimDecision). */
  async claimCertificate(c: { certificateId: string; customerId: string; cartId: string }): Promise<void> {
    await this.#upsertOrigin(c.certificateId, c.customerId, { claimed_cart_id: c.cartId, claimed_at: new Date() })
  }

  /** The cart holding the claim became an order: the certificate is used (its order id is set when that order is filed). */
  async finalizeClaim(certificateId: string): Promise<void> {
    const row = await this.#origin(certificateId)
    if (row && !row.used_at) await this.updateCertificateOrigins({ id: row.id, used_at: new Date() })
  }

  async certificateStandings(customerId: string, certificateIds: string[]): ReturnType<CertificateReviews["certificateStandings"]> {
    // read by customer: another customer's row cannot make this customer's certificate exempt
    const rows = await this.listCertificateOrigins({ customer_id: customerId }, { take: null })
    const byId = standingsOf(rows.filter((r) => r.certificate_id && certificateIds.includes(r.certificate_id)))
    return { byId, reserved: rows.some((r) => isPlaceholder(r.certificate_id)) }
  }

  /** What the store keeps about each of `certificateIds` ({ [certificateId]: standing }; absent: made elsewhere). */
  async certificateOrigins(certificateIds: string[]): Promise<Record<string, CertificateStanding>> {
    const ids = [...new Set(certificateIds.filter(Boolean))]
    if (!ids.length) return {}
    return standingsOf(await this.listCertificateOrigins({ certificate_id: ids }, { take: null }))
  }

  /** Staff approve or reject a certificate (a rejection carries the reason the shopper sees); answers its standing. */
  async reviewCertificate(r: {
    certificateId: string
    customerId: string
    status: "approved" | "rejected"
    reason: string | null
    actorId: string | null
  }): Promise<CertificateStanding> {
    await this.#upsertOrigin(r.certificateId, r.customerId, {
      review_status: r.status,
      rejection_reason: r.status === "rejected" ? r.reason : null,
      reviewed_by: r.actorId,
      reviewed_at: new Date(),
    })
    return (await this.certificateOrigins([r.certificateId]))[r.certificateId]!
  }

  /** A single-purchase certificate was used by `orderId` (filed); the first order stays its user. Made elsewhere: as claimCertificate. */
  async markCertificateUsed(u: { certificateId: string; orderId: string; customerId: string | null }): Promise<void> {
    const row = await this.#origin(u.certificateId)
    if (row?.used_order_id || (!row && !u.customerId)) return
    const used_at = row?.used_at ? new Date(row.used_at) : new Date()
    await this.#upsertOrigin(u.certificateId, u.customerId!, { used_order_id: u.orderId, used_at }, row)
  }

  /** The service-call log: a batch of attempts (call-log.ts buffers them off the request path). */
  async writeCallLog(rows: CallLogRow[]): Promise<void> {
    if (rows.length) await this.createCallLogEntries(rows)
  }

  /** Deletes call-log entries (and their bodies) older than `before`, for good, oldest first. */
  async pruneCallLog(before: Date): Promise<number> {
    return pruneInBatches(
      async (limit) =>
        (await this.listCallLogEntries({ at: { $lt: before } }, { select: ["id"], take: limit, order: { at: "ASC" } })).map((o) => o.id),
      (ids) => this.deleteCallLogEntries(ids),
    )
  }
}

export default SalesTaxModuleService
