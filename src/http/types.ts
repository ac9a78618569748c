// Response shapes of the plugin's admin routes (src/api/admin/sales-tax/**), shared by the routes
// and the widgets. Type-only: nothing here runs.
import type { CertificateRecord, HealthResponse, TicResult } from "../service/contract"

export type TicTargetType = "product" | "product-type" | "product-category"
export type TicSource = "product" | "product_type" | "product_category" | "default"

export interface TicInfo {
  ticId: number
  /** Label from the Sales Tax Service; null when it does not know the code or cannot be asked. */
  label: string | null
}

export interface TicTargetRef {
  id: string
  name: string | null
  tic: TicInfo | null
  /** Category whose TIC this one inherits (nearest ancestor with a TIC), when not its own. */
  inheritedFrom?: string
}

export interface AdminTicResponse {
  target: { type: TicTargetType; id: string; name: string | null }
  /** The TIC assigned to this target itself (null: none). */
  assigned: TicInfo | null
  /** What this target's items are taxed as, and which level it came from. */
  resolved: { tic: TicInfo; source: TicSource; sourceId: string | null }
  /** Every level that was considered (products only carry productType and categories). */
  chain: {
    product?: TicInfo | null
    productType?: TicTargetRef | null
    categories?: TicTargetRef[]
    default: TicInfo
  }
}

/** POST /admin/sales-tax/tics/{target}/:id: the new state, and a warning when the TIC is unverified. */
export interface AdminTicSetResponse extends AdminTicResponse {
  /** Set when the Sales Tax Service could not be asked whether it knows the TIC (saved anyway). */
  warning?: string
}

export interface AdminTicSearchResponse {
  query: string
  results: TicResult[]
  nextCursor: string | null
}

/** Who created a certificate through this store: the customer (storefront) or staff (admin); null when made elsewhere. */
export type CertificateCreator = "customer" | "staff"

/** A certificate with what the store keeps about it (review, single-purchase use). */
export type CertificateWithStanding = CertificateRecord & {
  createdBy: CertificateCreator | null
  /** pending (awaiting review), active, rejected, used (single purchase, its order filed), disabled */
  status: "pending" | "active" | "rejected" | "used" | "disabled"
  /** null when made elsewhere (no review: staff at the service) */
  review: { status: "pending" | "approved" | "rejected"; rejectionReason: string | null; reviewedAt: string | null } | null
  usedByOrderId: string | null
  usedAt: string | null
}

export interface AdminCertificatesResponse {
  customer: { id: string; name: string | null; email: string | null; companyName: string | null }
  certificates: CertificateWithStanding[]
}

export interface AdminCertificateResponse {
  certificate: CertificateRecord | CertificateWithStanding
}

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

/** One service connection as GET /admin/sales-tax/connections lists it (never its key). */
export interface ConnectionView {
  connectionId: string
  /** always "****" */
  apiKey: string
  isDefault: boolean
  /** the configured channels (the default: every channel no other connection names) */
  salesChannels: { id: string; name: string | null; exists: boolean }[]
}

export interface AdminConnectionsResponse {
  connections: ConnectionView[]
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

/** One call to the Sales Tax Service as GET /admin/sales-tax/activity answers it (the call log's row, dates as JSON). */
export interface ActivityEntryView {
  id: string
  at: string
  operation: string
  connection_id: string
  status: number | null
  latency_ms: number
  attempt: number
  cart_id: string | null
  order_id: string | null
  return_id: string | null
  error_title: string | null
  error_code: string | null
  request_body?: unknown
  response_body?: unknown
}
