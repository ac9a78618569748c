// The overview of Settings → Sales Tax (GET /admin/sales-tax/settings).
import type { MedusaRequest } from "@medusajs/framework/http"
import type { HealthResponse, PingResponse } from "../service/contract"
import { SalesTaxError } from "../service/client"
import { redactOptions } from "../options"
import { SALES_TAX_FILING_MODULE } from "../modules/sales-tax-filing/types"
import { productTicRow, readProducts, resolveLoadedProductTics, type ProductTicFields } from "../tics/product-tics"
import type { TicSource } from "../tics/tic-resolution"
import { KEY_REFUSED, KEY_REFUSED_MESSAGE, pausedOrderCount } from "../filing/key-refused"
import { pluginOptions, salesTaxClient, serviceText } from "../http/answers"
import { ticInfo, type TicInfo } from "../tics/lookup"

export interface CheckResult<T> {
  ok: boolean
  durationMs: number
  result?: T
  error?: string
  status?: number | null
}

export interface FailureSummary {
  id: string
  orderId: string | null
  state: string | null
  lastError: string | null
  attempts: number | null
  updatedAt: string | null
}

export interface AdminSettingsResponse {
  connection: {
    health: CheckResult<HealthResponse>
    ping: CheckResult<{ message: string }>
  }
  /** The options in force, the API key redacted. */
  options: Record<string, unknown> | null
  optionsError?: string
  coverage: {
    totalProducts: number
    bySource: Record<TicSource, number>
    defaultTic: TicInfo
    /** Products whose TIC falls back to the default (at most `limit`). */
    fallingBack: { id: string; title: string | null }[]
    truncated: boolean
  }
  failures: {
    available: boolean
    items: FailureSummary[]
    error?: string
  }
  /** Filing paused because the service refused the key (401/403), with the orders waiting; null: not paused. */
  filingPaused?: FilingPausedSummary | null
}

/** Records paused by a refused key: retried with back-off until the service accepts the key (docs/filing.md). */
export interface FilingPausedSummary {
  reason: "key_refused"
  /** "filing paused: the service refused the key" */
  message: string
  /** Medusa orders waiting (an order's several service orders count once) */
  orders: number
  /** filing records waiting */
  records: number
  /** the earliest next attempt (ISO) */
  nextAttemptAt: string | null
}

type Scope = MedusaRequest["scope"]

const LIST_FALLING_BACK = 50
const RECENT_FAILURES = 10

export async function check<T>(fn: () => Promise<T>, scrub: (text: string) => string): Promise<CheckResult<T>> {
  const t0 = Date.now()
  try {
    const result = await fn()
    return { ok: true, durationMs: Date.now() - t0, result }
  } catch (e) {
    const err = e instanceof SalesTaxError ? e : null
    return {
      ok: false,
      durationMs: Date.now() - t0,
      status: err ? err.status : null,
      error: err ? scrub(err.message) : "unexpected error",
    }
  }
}

async function coverage(scope: Scope, defaultTic: number): Promise<AdminSettingsResponse["coverage"]> {
  const { rows: products, truncated } = await readProducts<ProductTicFields & { title?: string | null }>(scope, [
    "id",
    "title",
    "type_id",
    "categories.id",
    "categories.mpath",
  ])
  const tics = await resolveLoadedProductTics(scope, products.map(productTicRow), defaultTic)
  const bySource: Record<TicSource, number> = { product: 0, product_type: 0, product_category: 0, default: 0 }
  const fallingBack: { id: string; title: string | null }[] = []
  for (const p of products) {
    const source = tics.get(p.id)?.source ?? "default"
    bySource[source]++
    if (source === "default" && fallingBack.length < LIST_FALLING_BACK) fallingBack.push({ id: p.id, title: p.title ?? null })
  }
  return {
    totalProducts: products.length,
    bySource,
    defaultTic: await ticInfo(scope, defaultTic),
    fallingBack,
    truncated: truncated || bySource.default > fallingBack.length,
  }
}

interface FilingRow {
  id: string
  order_id?: string | null
  state?: string | null
  last_error?: string | null
  attempts?: number | null
  updated_at?: Date | string | null
}
type Lister = (filters: Record<string, unknown>, config: Record<string, unknown>) => Promise<FilingRow[]>

async function failures(scope: Scope, scrub: (text: string) => string): Promise<AdminSettingsResponse["failures"]> {
  let svc: Record<string, unknown>
  try {
    svc = scope.resolve<Record<string, unknown>>(SALES_TAX_FILING_MODULE)
  } catch {
    return { available: false, items: [], error: "the filing module is not registered" }
  }
  const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null)
  const items: FailureSummary[] = []
  const config = { take: RECENT_FAILURES, order: { updated_at: "DESC" } }
  const records = svc.listFilingRecords as Lister | undefined
  const refunds = svc.listFilingRefunds as Lister | undefined
  if (typeof records === "function") {
    for (const r of await records.call(svc, { state: "failed" }, config)) {
      items.push({
        id: r.id,
        orderId: r.order_id ?? null,
        state: r.state ?? null,
        lastError: r.last_error ? scrub(r.last_error) : null,
        attempts: r.attempts ?? null,
        updatedAt: iso(r.updated_at),
      })
    }
  }
  if (typeof refunds === "function") {
    for (const r of await refunds.call(svc, { state: "failed" }, config)) {
      items.push({
        id: r.id,
        orderId: r.order_id ?? null,
        state: `refund ${r.state ?? ""}`.trim(),
        lastError: r.last_error ? scrub(r.last_error) : null,
        attempts: r.attempts ?? null,
        updatedAt: iso(r.updated_at),
      })
    }
  }
  items.sort((a, b) => (b.updatedAt ?? "").localeCompare(a.updatedAt ?? ""))
  return { available: typeof records === "function", items: items.slice(0, RECENT_FAILURES) }
}

interface PausedRow {
  order_id: string
  parent_order_id?: string | null
  next_attempt_at?: Date | string | null
}

/** Records paused by a refused key (key-refused.ts) and the orders behind them; null when none. */
export async function filingPaused(scope: Scope): Promise<FilingPausedSummary | null> {
  const svc = scope.resolve<Record<string, unknown>>(SALES_TAX_FILING_MODULE, { allowUnregistered: true })
  const list = svc?.listFilingRecords as ((f: Record<string, unknown>, c: Record<string, unknown>) => Promise<PausedRow[]>) | undefined
  if (typeof list !== "function") return null
  const rows = await list.call(
    svc,
    { paused_reason: KEY_REFUSED },
    { select: ["order_id", "parent_order_id", "next_attempt_at"], take: null, order: { next_attempt_at: "ASC" } },
  )
  if (!rows.length) return null
  const next = rows.find((r) => r.next_attempt_at)?.next_attempt_at
  return {
    reason: KEY_REFUSED,
    message: KEY_REFUSED_MESSAGE,
    orders: pausedOrderCount(rows),
    records: rows.length,
    nextAttemptAt: next ? new Date(next).toISOString() : null,
  }
}

/** The overview: connection health, the options in force (redacted), TIC coverage, recent failures, a refused key's pause. */
export async function settingsOverview(scope: Scope): Promise<AdminSettingsResponse> {
  const options = pluginOptions(scope)
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
