// The overview of Settings → Sales Tax (GET /admin/sales-tax/settings).
import type { MedusaRequest } from "@medusajs/framework/http"
import type { HealthResponse, PingResponse } from "../../packages/contract/src/index"
import { SalesTaxError } from "../service/client"
import { redactOptions, getPluginOptions } from "../options"
import { SALES_TAX_FILING_MODULE } from "../modules/sales-tax-filing/types"
import type SalesTaxFilingModuleService from "../modules/sales-tax-filing/service"
import { readProductTics, type ProductTicFields } from "../service/tics/product-tics"
import type { TicSource } from "../service/tics/tic-resolution"
import { KEY_REFUSED, KEY_REFUSED_MESSAGE, pausedOrderCount } from "../filing/key-refused"
import { salesTaxClient, serviceText } from "../http/answers"
import { ticInfo } from "../tics/lookup"

export type CheckResult<T> = { ok: boolean; durationMs: number; result?: T; error?: string; status?: number | null }
export type AdminSettingsResponse = Awaited<ReturnType<typeof settingsOverview>>

type Scope = MedusaRequest["scope"]
type Scrub = (text: string) => string

const LIST_FALLING_BACK = 50
const RECENT_FAILURES = 10

export async function check<T>(fn: () => Promise<T>, scrub: Scrub): Promise<CheckResult<T>> {
  const t0 = Date.now()
  try {
    const result = await fn()
    return { ok: true, durationMs: Date.now() - t0, result }
  } catch (e) {
    const err = e instanceof SalesTaxError ? e : null
    return { ok: false, durationMs: Date.now() - t0, status: err ? err.status : null, error: err ? scrub(err.message) : "unexpected error" }
  }
}

/** Products per TIC source, and the first of those on the default TIC. */
async function coverage(scope: Scope, defaultTic: number) {
  const { rows, truncated, tics } = await readProductTics<ProductTicFields & { title?: string | null }>(scope, defaultTic, ["title"])
  const bySource: Record<TicSource, number> = { product: 0, product_type: 0, product_category: 0, default: 0 }
  const fallingBack: { id: string; title: string | null }[] = []
  for (const p of rows) {
    const source = tics.get(p.id)?.source ?? "default"
    bySource[source]++
    if (source === "default" && fallingBack.length < LIST_FALLING_BACK) fallingBack.push({ id: p.id, title: p.title ?? null })
  }
  return {
    totalProducts: rows.length,
    bySource,
    defaultTic: await ticInfo(scope, defaultTic),
    fallingBack,
    truncated: truncated || bySource.default > fallingBack.length,
  }
}

const filingModule = (scope: Scope) =>
  scope.resolve<SalesTaxFilingModuleService | undefined>(SALES_TAX_FILING_MODULE, { allowUnregistered: true })

/** The latest failed records and refunds, newest first. */
async function failures(scope: Scope, scrub: Scrub) {
  const svc = filingModule(scope)
  if (!svc) return { available: false, items: [], error: "the filing module is not registered" }
  const config = { take: RECENT_FAILURES, order: { updated_at: "DESC" as const } }
  const [records, refunds] = await Promise.all([
    svc.listFilingRecords({ state: "failed" }, config),
    svc.listFilingRefunds({ state: "failed" }, config),
  ])
  const items = [...records.map((r) => ({ ...r, prefix: "" })), ...refunds.map((r) => ({ ...r, prefix: "refund " }))]
    .map((r) => ({
      id: r.id,
      orderId: r.order_id ?? null,
      state: `${r.prefix}${r.state ?? ""}`.trim() || null,
      lastError: r.last_error ? scrub(r.last_error) : null,
      attempts: r.attempts ?? null,
      updatedAt: r.updated_at ? new Date(r.updated_at).toISOString() : null,
    }))
    .sort((a, b) => (b.updatedAt ?? "").localeCompare(a.updatedAt ?? ""))
  return { available: true, items: items.slice(0, RECENT_FAILURES), error: undefined as string | undefined }
}

/** Records paused by a refused key and the orders behind them; null when none. */
export async function filingPaused(scope: Scope) {
  const svc = filingModule(scope)
  if (!svc) return null
  const select = ["order_id", "parent_order_id", "next_attempt_at"]
  const rows = await svc.listFilingRecords({ paused_reason: KEY_REFUSED }, { select, take: null, order: { next_attempt_at: "ASC" } })
  if (!rows.length) return null
  const next = rows.find((r) => r.next_attempt_at)?.next_attempt_at
  return {
    reason: KEY_REFUSED,
    message: KEY_REFUSED_MESSAGE,
    /** an order's several service orders count once */
    orders: pausedOrderCount(rows),
    records: rows.length,
    nextAttemptAt: next ? new Date(next).toISOString() : null,
  }
}

/** The overview: connection health, the options in force (redacted), TIC coverage, recent failures, a pause. */
export async function settingsOverview(scope: Scope) {
  const options = getPluginOptions(scope)
  const client = salesTaxClient(scope)
  const scrub = (t: string) => serviceText(scope, t)
  const [health, ping, coverageNow, failuresNow, paused] = await Promise.all([
    check<HealthResponse>(() => client.health(), scrub),
    check<PingResponse>(() => client.ping(), scrub),
    coverage(scope, options.defaultTic),
    failures(scope, scrub).catch((e: unknown) => ({
      available: false,
      items: [],
      error: e instanceof Error ? e.message : "unexpected error",
    })),
    filingPaused(scope).catch(() => null),
  ])
  return {
    connection: { health, ping },
    options: redactOptions(options),
    coverage: coverageNow,
    failures: failuresNow,
    filingPaused: paused,
  }
}
