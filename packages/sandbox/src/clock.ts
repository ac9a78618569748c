/**
 * The sandbox clock: real time by default; tests freeze it at an instant (PUT /_sandbox/clock) so
 * date rules (void cutoff, completedDate not in the future) can be driven to their edges.
 */
export class SandboxClock {
  private frozenAt: number | null = null

  now(): Date {
    return new Date(this.frozenAt ?? Date.now())
  }
  get frozen(): boolean {
    return this.frozenAt !== null
  }
  /** Freezes the clock at `at` (it stays there until set again or cleared). */
  set(at: Date): void {
    const t = at.getTime()
    if (!Number.isFinite(t)) throw new RangeError("invalid date")
    this.frozenAt = t
  }
  /** Back to real time. */
  clear(): void {
    this.frozenAt = null
  }
  toJSON(): { now: string; frozen: boolean } {
    return { now: this.now().toISOString(), frozen: this.frozen }
  }
}
