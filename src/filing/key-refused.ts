/** A refused key (HTTP 401/403) is not the order's fault and heals once fixed: the record is paused (`paused_reason`) and
 * retried with back-off outside `filing.maxAttempts`; the first that goes through makes the others due. */
import { isKeyRefused } from "../service/client"
import { isRetryable } from "./decisions-retry"

export const KEY_REFUSED = "key_refused" as const

/** What the admin shows while records are paused this way. */
export const KEY_REFUSED_MESSAGE = "filing paused: the service refused the key"

/** Pure: a failed run's attempt count (the back-off's exponent), whether it is retried, why it is paused. A refused key: always
 * retried; any other error: until `maxAttempts`, counted afresh after a pause. */
export function planFailure(err: unknown, prev: { attempts: number; paused_reason?: string | null }, maxAttempts: number) {
  const wasPaused = prev.paused_reason === KEY_REFUSED
  if (isKeyRefused(err)) return { attempts: (wasPaused ? prev.attempts : 0) + 1, retry: true, paused: KEY_REFUSED }
  const attempts = (wasPaused ? 0 : prev.attempts) + 1
  return { attempts, retry: isRetryable(err) && attempts < maxAttempts, paused: null }
}

/** Pure: the Medusa orders waiting behind paused records (an order's other origins, edits, exchanges count once). */
export function pausedOrderCount(rows: { order_id: string; parent_order_id?: string | null }[]): number {
  return new Set(rows.map((r) => r.parent_order_id ?? r.order_id)).size
}
