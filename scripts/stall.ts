/**
 * Bounds that hold on a loaded machine (issue 29): a bound judges PROGRESS, not wall time.
 *
 * A fixed timeout ("db:migrate within 240 s") measures the machine as much as the work: under a
 * full CPU load the same migration takes five times as long and the test fails although nothing is
 * wrong. So the tests, the browser harness, the cluster test and the demo bound their waits by
 * progress instead:
 *   - a child process (Medusa's CLI, `medusa start`) is stalled when its process tree has used no
 *     CPU for `stallMs` (it waits on something that will not come); while it computes, however
 *     slowly, it is given time;
 *   - a poll (the cluster's catch-up) is stalled when what it counts has not moved for `stallMs`;
 *   - a generous cap (`capMs`) still ends a run that progresses forever.
 * The judgement is a pure function (`stallVerdict`) tested with a fake clock; `treeCpuMs` reads
 * /proc (Linux) and answers null elsewhere (then only the cap applies).
 */
import { readdirSync, readFileSync } from "node:fs"

export interface StallBound {
  /** no progress for this long = stalled */
  stallMs: number
  /** ends the wait even while it progresses */
  capMs: number
  /** the least increase of the measure that counts as progress (CPU ms; 1 for a counter) */
  minStep: number
}

export interface StallState {
  startedAt: number
  /** the measure when it last moved by at least minStep */
  mark: number | null
  markAt: number
}

export type Verdict = { state: StallState; stop: null } | { state: StallState; stop: "stalled" | "cap"; idleMs: number }

export const startStall = (now: number): StallState => ({ startedAt: now, mark: null, markAt: now })

/** One sample of the measure (null: unreadable, which is no progress) at time `now`. */
export function stallVerdict(bound: StallBound, s: StallState, value: number | null, now: number): Verdict {
  let state = s
  if (value !== null && (s.mark === null || value - s.mark >= bound.minStep)) state = { ...s, mark: value, markAt: now }
  const idleMs = now - state.markAt
  if (now - state.startedAt >= bound.capMs) return { state, stop: "cap", idleMs }
  if (idleMs >= bound.stallMs) return { state, stop: "stalled", idleMs }
  return { state, stop: null }
}

/** What a stopped wait says: which bound ended it and why. */
export function stallMessage(label: string, v: Exclude<Verdict, { stop: null }>, bound: StallBound): string {
  return v.stop === "cap"
    ? `${label} was still progressing after ${Math.round(bound.capMs / 1000)} s (the cap)`
    : `${label} made no progress for ${Math.round(v.idleMs / 1000)} s (stalled)`
}

const CLOCK_TICK_MS = 10 // USER_HZ is 100 on Linux

/** CPU time (ms) used so far by `pid` and all its descendants (reaped children included); null off Linux or when `pid` is gone. */
export function treeCpuMs(pid: number): number | null {
  const stats = new Map<number, { ppid: number; cpu: number }>()
  let entries: string[]
  try {
    entries = readdirSync("/proc")
  } catch {
    return null
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue
    try {
      const raw = readFileSync(`/proc/${e}/stat`, "utf8")
      // fields after the command name (which may hold spaces and parentheses)
      const f = raw.slice(raw.lastIndexOf(")") + 2).split(" ")
      const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])
      stats.set(Number(e), { ppid: Number(f[1]), cpu: ticks * CLOCK_TICK_MS })
    } catch {
      // the process ended between the listing and the read
    }
  }
  if (!stats.has(pid)) return null
  let total = 0
  const queue = [pid]
  while (queue.length) {
    const p = queue.pop()!
    total += stats.get(p)?.cpu ?? 0
    for (const [child, s] of stats) if (s.ppid === p) queue.push(child)
  }
  return total
}

/**
 * Watches a child process: calls `onStop(message)` once when its tree has used no CPU for
 * `bound.stallMs` or the cap is reached. Returns the function that ends the watch.
 */
export function watchProcess(
  pid: number,
  label: string,
  bound: StallBound,
  onStop: (message: string) => void,
  sampleMs = 2000,
): () => void {
  let state = startStall(Date.now())
  const timer = setInterval(() => {
    const v = stallVerdict(bound, state, treeCpuMs(pid), Date.now())
    state = v.state
    if (v.stop) {
      clearInterval(timer)
      onStop(stallMessage(label, v, bound))
    }
  }, sampleMs)
  timer.unref()
  return () => clearInterval(timer)
}

/** A child process of Medusa's CLI: stalled after 3 min without CPU, capped at 45 min. */
export const PROCESS_BOUND: StallBound = { stallMs: 180_000, capMs: 45 * 60_000, minStep: 50 }
