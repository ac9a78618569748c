// The service-call log's writer: attempts are buffered and written by a timer, off the request path.
// The `salesTax` module attaches as the sink (the last attached writes). A failed write drops its batch
// with ONE warning per failure streak; a full buffer drops new entries and counts them.
import { AsyncResource } from "node:async_hooks"
import type { AttemptInfo } from "./client"

export type CallLogRow = ReturnType<typeof rowOf>

export interface CallLogSink {
  writeCallLog(rows: CallLogRow[]): Promise<void>
  /** Deletes entries older than `before`; returns how many. */
  pruneCallLog(before: Date): Promise<number>
}

type Warn = (message: string) => void

/** Ids deleted per statement when the log is pruned (a long retention or a busy store: many rows). */
export const PRUNE_BATCH = 1000

/** Deletes expired entries in bounded batches (no giant IN (...) or lock) until a short batch; returns how many. */
export async function pruneInBatches(
  take: (limit: number) => Promise<string[]>,
  drop: (ids: string[]) => Promise<void>,
  batch = PRUNE_BATCH,
  maxBatches = 10_000,
): Promise<number> {
  let n = 0
  for (let i = 0; i < maxBatches; i++) {
    const ids = await take(batch)
    if (!ids.length) break
    await drop(ids)
    n += ids.length
    if (ids.length < batch) break
  }
  return n
}

const asRecord = (v: unknown): Record<string, unknown> | null =>
  v === undefined || v === null ? null : typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v }

export function rowOf(connectionId: string, info: AttemptInfo, at: Date) {
  return {
    at,
    operation: info.operation,
    connection_id: connectionId,
    status: info.status,
    latency_ms: Math.max(0, Math.round(info.durationMs)),
    attempt: info.attempt,
    cart_id: info.ids?.cartId ?? null,
    order_id: info.ids?.orderId ?? null,
    return_id: info.ids?.refundKey ?? null,
    error_title: info.errorTitle ?? null,
    error_code: info.errorCode ?? null,
    request_body: asRecord(info.requestBody),
    response_body: asRecord(info.responseBody),
  }
}

export class CallLogBuffer {
  readonly flushMs: number
  readonly maxBuffered: number
  /** What record() keeps: the attempt as reported and when; its row is built at flush (off the request path). */
  #rows: { connectionId: string; info: AttemptInfo; at: number }[] = []
  #sinks: CallLogSink[] = []
  #warn: Warn = (m) => console.warn(m)
  #timer: NodeJS.Timeout | null = null
  #failing = false
  #flushing: Promise<void> | null = null
  #lastPrune = 0
  // the context the buffer was made in: a flush is no request's, so the request whose attempt scheduled it neither
  // holds its write in its tracing spans (STORE_CART_TRACE) nor keeps its async stores alive until the timer fires
  readonly #detached = new AsyncResource("medusa-sales-tax:call-log")
  retentionDays = 14
  /** entries dropped because the buffer was full or a write failed */
  dropped = 0

  constructor(o: { flushMs?: number; maxBuffered?: number } = {}) {
    this.flushMs = o.flushMs ?? 2000
    this.maxBuffered = o.maxBuffered ?? 5000
  }

  get #sink(): CallLogSink | undefined {
    return this.#sinks.at(-1)
  }

  attach(sink: CallLogSink, warn?: Warn): void {
    this.#sinks = [...this.#sinks.filter((s) => s !== sink), sink]
    if (warn) this.#warn = warn
  }

  /** At a module instance's shutdown: its buffer written if it is the sink, then let go (no timer writes through a closed pool). */
  async close(sink: CallLogSink): Promise<void> {
    if (this.#sink === sink) await this.flush()
    this.#sinks = this.#sinks.filter((s) => s !== sink)
  }

  get pending(): number {
    return this.#rows.length
  }

  /** Buffers one attempt (already redacted) and schedules a flush; never throws, never waits. */
  record(connectionId: string, info: AttemptInfo): void {
    // full (the sink is away or not attached yet): this entry is dropped and counted, in O(1)
    if (this.#rows.length >= this.maxBuffered) {
      this.dropped++
      return
    }
    this.#rows.push({ connectionId, info, at: Date.now() })
    if (!this.#timer) {
      const flushLater = () =>
        setTimeout(() => {
          this.#timer = null
          void this.flush()
        }, this.flushMs)
      this.#timer = this.#detached.runInAsyncScope(flushLater)
      this.#timer.unref?.()
    }
  }

  /** Writes what is buffered (one write at a time); prunes at most once an hour. */
  async flush(): Promise<void> {
    if (this.#flushing) await this.#flushing
    if (!this.#rows.length || !this.#sink) return
    const sink = this.#sink
    const batch = this.#rows.splice(0, this.#rows.length).map((r) => rowOf(r.connectionId, r.info, new Date(r.at)))
    this.#flushing = (async () => {
      try {
        await sink.writeCallLog(batch)
        if (this.#failing) this.#warn(`sales-tax: the service-call log is written again`)
        this.#failing = false
        if (Date.now() - this.#lastPrune > 3_600_000) {
          this.#lastPrune = Date.now()
          await this.prune()
        }
      } catch (e) {
        this.dropped += batch.length
        if (!this.#failing) {
          this.#failing = true
          this.#warn(
            `sales-tax: the service-call log could not be written (${(e as Error)?.message ?? e}); calls to the service go on, their log entries are dropped until it can be written again`,
          )
        }
      }
    })()
    try {
      await this.#flushing
    } finally {
      this.#flushing = null
    }
  }

  async prune(now = new Date()): Promise<number> {
    if (!this.#sink) return 0
    try {
      return await this.#sink.pruneCallLog(new Date(now.getTime() - this.retentionDays * 86_400_000))
    } catch {
      return 0 // the next write's warning tells; pruning is retried within the hour
    }
  }
}

/** The process's one buffer (the provider, filing and the admin share the client factory). */
export const callLog = new CallLogBuffer()
