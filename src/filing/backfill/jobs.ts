/** The admin's backfill: one at a time per process, in the background, its progress in memory (polled). A restart loses the
 * progress, not the work: the filing records are the ledger, so starting again continues. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "../../medusa/keys"
import { randomUUID } from "node:crypto"
import { isSalesTaxError } from "../../service/client/errors"
import { sanitizeError } from "../decisions-retry"
import { PluginOptionsError } from "../../options"
import { runtimeSlot } from "../../runtime"
import { secretOf } from "../processor-factory"
import type { BackfillProgress } from "./core"
import { runBackfill } from "./medusa"
import { rangeOf, type BackfillRangeInput } from "./range"

export interface BackfillJob {
  id: string
  from: string
  to: string
  status: "running" | "done" | "failed"
  progress: BackfillProgress | null
  error: string | null
}

const backfills = runtimeSlot("backfill", (): { job: BackfillJob | null } => ({ job: null }))

/** What a failed job shows the admin when the failure is not the service's nor the options'. */
export const INTERNAL_FAILURE =
  "The backfill stopped on an internal error (the server log has the details). Orders filed before it stopped keep their records: start it again to continue."

/** A failed job's `error` for the admin: the service's answer or the options' problem (secrets replaced); anything else (SQL
 * and its parameters, internals) as a plain sentence, its detail only in the server log. */
export function backfillFailureMessage(e: unknown, secrets: (string | undefined | null)[]): string {
  if (isSalesTaxError(e) || e instanceof PluginOptionsError) return sanitizeError(e, secrets)
  return INTERNAL_FAILURE
}

export function currentBackfill(): BackfillJob | null {
  const { job } = backfills()
  return job ? { ...job } : null
}

/** Starts the range's backfill in the background (null while one runs). */
export function startBackfill(container: MedusaContainer, input: BackfillRangeInput): BackfillJob | null {
  const slot = backfills()
  if (slot.job?.status === "running") return null
  const job: BackfillJob = { id: `stbf_${randomUUID()}`, from: input.from, to: input.to, status: "running", progress: null, error: null }
  slot.job = job
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  void runBackfill(container, {
    ...rangeOf(input),
    batchSize: input.batch_size,
    concurrency: input.concurrency,
    onProgress: (p) => void (job.progress = p),
  }).then(
    (p) => {
      job.progress = p
      job.status = "done"
      logger.info(`sales-tax backfill ${job.from}..${job.to}: filed ${p.filed}, skipped ${p.skipped}, failed ${p.failed}`)
    },
    (e) => {
      const secret = secretOf(container)
      job.error = backfillFailureMessage(e, [secret])
      job.status = "failed"
      logger.error(`sales-tax backfill ${job.from}..${job.to} failed: ${sanitizeError(e, [secret])}`)
    },
  )
  return { ...job }
}
