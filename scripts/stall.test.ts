import { spawn } from "node:child_process"
import { startStall, stallMessage, stallVerdict, treeCpuMs, type StallBound } from "./stall"

const bound: StallBound = { stallMs: 60_000, capMs: 600_000, minStep: 50 }

/** feeds (time, measure) samples and returns the first stop, with when it came */
function run(samples: [number, number | null][]) {
  let state = startStall(0)
  for (const [t, v] of samples) {
    const verdict = stallVerdict(bound, state, v, t)
    state = verdict.state
    if (verdict.stop) return { at: t, stop: verdict.stop, idleMs: verdict.idleMs }
  }
  return null
}

describe("stallVerdict (fake clock)", () => {
  it("a slow process that keeps using CPU is never stalled, however long it takes, until the cap", () => {
    // 60 ms of CPU every 50 s: ten times slower than an idle machine, still progress
    const samples: [number, number][] = Array.from({ length: 11 }, (_, i) => [i * 50_000, i * 60])
    expect(run(samples)).toBeNull()
    const long: [number, number][] = Array.from({ length: 14 }, (_, i) => [i * 50_000, i * 60])
    expect(run(long)).toEqual({ at: 600_000, stop: "cap", idleMs: 0 })
  })

  it("stops a process whose CPU has not moved for stallMs, measured from its last progress", () => {
    expect(
      run([
        [0, 0],
        [10_000, 500],
        [30_000, 520], // +20 ms: below minStep, not progress
        [69_999, 530],
        [70_000, 530],
      ]),
    ).toEqual({ at: 70_000, stop: "stalled", idleMs: 60_000 })
  })

  it("small steps add up: progress is measured from the last mark, not from the last sample", () => {
    // +30 ms per 20 s sample: every second sample crosses minStep
    const samples: [number, number][] = Array.from({ length: 20 }, (_, i) => [i * 20_000, i * 30])
    expect(run(samples)).toBeNull()
  })

  it("an unreadable measure (process gone, no /proc) is no progress", () => {
    expect(
      run([
        [0, null],
        [59_000, null],
        [60_000, null],
      ]),
    ).toEqual({ at: 60_000, stop: "stalled", idleMs: 60_000 })
  })

  it("says which bound ended the wait", () => {
    expect(stallMessage("medusa db:migrate", { state: startStall(0), stop: "stalled", idleMs: 61_000 }, bound)).toBe(
      "medusa db:migrate made no progress for 61 s (stalled)",
    )
    expect(stallMessage("medusa db:migrate", { state: startStall(0), stop: "cap", idleMs: 0 }, bound)).toBe(
      "medusa db:migrate was still progressing after 600 s (the cap)",
    )
  })
})

describe("treeCpuMs", () => {
  it("counts the CPU of a child's children: a busy grandchild makes its idle parent progress", async () => {
    // the parent only waits; its child spins until it has used 300 ms of CPU, then sleeps
    const parent = spawn(
      process.execPath,
      [
        "-e",
        `require("child_process").spawn(process.execPath, ["-e", "const s=process.cpuUsage(); while (process.cpuUsage(s).user < 300000); setTimeout(()=>{}, 60000)"], { stdio: "ignore" }); setTimeout(()=>{}, 60000)`,
      ],
      { stdio: "ignore" },
    )
    try {
      const deadline = Date.now() + 60_000
      let cpu: number | null = 0
      // the tree's CPU passes 250 ms once the grandchild has spun (a poll: no bound on how fast)
      while (Date.now() < deadline && (cpu ?? 0) < 250) {
        await new Promise((r) => setTimeout(r, 100))
        cpu = treeCpuMs(parent.pid!)
      }
      expect(cpu).toBeGreaterThanOrEqual(250)
    } finally {
      // the grandchild is in the parent's process tree: end both
      spawn("pkill", ["-P", String(parent.pid)])
      parent.kill("SIGKILL")
    }
  }, 120_000)

  it("answers null for a process that does not exist", () => {
    expect(treeCpuMs(2 ** 22 + 12345)).toBeNull()
  })
})
