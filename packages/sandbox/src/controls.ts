import { randomUUID } from "node:crypto"
import { z } from "zod"
import { DateTime as IsoDateTime, OPERATION_IDS, type OperationId } from "@medusa-sales-tax/contract"
import { V1_CONTROL_KEYS, type V1ControlKey } from "./v1/names"

/** What counts and faults are keyed by: a v3 operation id, or "v1.<Operation>" for a legacy call. */
export type ControlKey = OperationId | V1ControlKey
export const CONTROL_KEYS: readonly ControlKey[] = [...OPERATION_IDS, ...V1_CONTROL_KEYS]

/** POST /_sandbox/faults body. */
export const FaultSpecSchema = z
  .object({
    operation: z.enum(["*", ...CONTROL_KEYS] as [ControlKey | "*", ...(ControlKey | "*")[]]),
    status: z.number().int().min(400, "status must be 400..599").max(599, "status must be 400..599").optional(),
    delayMs: z.number().int().min(0).max(600_000).optional(),
    retryAfter: z.string().min(1).max(100).optional(),
    probability: z.number().min(0).max(1).default(1),
    count: z.number().int().min(1).optional(),
    drop: z.boolean().default(false),
    phase: z.enum(["before", "after"]).default("before"),
    /** only requests on this connection (the path's or the query's connectionId); absent: every request */
    connectionId: z.string().min(1).max(100).optional(),
  })
  .superRefine((f, ctx) => {
    if (f.status === undefined && f.delayMs === undefined && !f.drop) {
      ctx.addIssue({ code: "custom", path: [], message: "a fault needs status, delayMs or drop", input: f })
    }
  })
export type FaultSpec = z.infer<typeof FaultSpecSchema>
export interface Fault extends FaultSpec {
  id: string
  /** remaining activations (undefined = unlimited) */
  remaining?: number
}

/** PUT /_sandbox/clock body. */
export const ClockBodySchema = z.object({ now: IsoDateTime })

/**
 * Test controls: injected faults per operation and request counts per operation, for the v3
 * operations (their ids) and the legacy v1 operations ("v1.Lookup", ...). Pure state; the HTTP
 * layers (v3 routes, v1 plugin) apply the faults.
 */
export class SandboxControls {
  private faults: Fault[] = []
  private readonly requestCounts = new Map<ControlKey, number>()
  /** the same per connection (the path's, or the query's connectionId): connection → operation → n */
  private readonly connectionCounts = new Map<string, Map<ControlKey, number>>()
  /** Random source for `probability` (replaceable in tests). */
  random: () => number = Math.random

  addFault(spec: FaultSpec): Fault {
    const f: Fault = { ...spec, id: randomUUID(), remaining: spec.count }
    this.faults.push(f)
    return f
  }
  removeFault(id: string): boolean {
    const before = this.faults.length
    this.faults = this.faults.filter((f) => f.id !== id)
    return this.faults.length !== before
  }
  clearFaults(): void {
    this.faults = []
  }
  listFaults(): Fault[] {
    return this.faults.map((f) => ({ ...f }))
  }

  /**
   * The fault that fires for this request, if any: the first fault (in creation order) for the
   * operation or "*" (and, when it names one, the request's connection) whose probability draw
   * succeeds. Consumes one of its `count`.
   */
  take(operation: ControlKey, connectionId?: string): Fault | undefined {
    if (this.faults.length === 0) return undefined
    for (const f of this.faults) {
      if (f.operation !== "*" && f.operation !== operation) continue
      if (f.connectionId !== undefined && f.connectionId !== connectionId) continue
      if (f.probability < 1 && !(this.random() < f.probability)) continue
      if (f.remaining !== undefined) {
        f.remaining--
        if (f.remaining <= 0) this.removeFault(f.id)
      }
      return { ...f }
    }
    return undefined
  }

  count(operation: ControlKey, connectionId?: string): void {
    this.requestCounts.set(operation, (this.requestCounts.get(operation) ?? 0) + 1)
    if (connectionId) {
      let m = this.connectionCounts.get(connectionId)
      if (!m) this.connectionCounts.set(connectionId, (m = new Map()))
      m.set(operation, (m.get(operation) ?? 0) + 1)
    }
  }
  /** Requests per connection that named one (in its path or query), by operation: only operations counted. */
  countsByConnection(): Record<string, Partial<Record<ControlKey, number>>> {
    const out: Record<string, Partial<Record<ControlKey, number>>> = {}
    for (const [cid, m] of this.connectionCounts) out[cid] = Object.fromEntries(m) as Partial<Record<ControlKey, number>>
    return out
  }
  counts(): Record<ControlKey, number> {
    const out = {} as Record<ControlKey, number>
    for (const id of CONTROL_KEYS) out[id] = this.requestCounts.get(id) ?? 0
    return out
  }
  resetCounts(): void {
    this.requestCounts.clear()
    this.connectionCounts.clear()
  }
  reset(): void {
    this.clearFaults()
    this.resetCounts()
  }
}
