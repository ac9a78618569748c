import { BrokenCircuitError, CircuitBreaker } from "./health"

describe("CircuitBreaker", () => {
  it("opens after N consecutive failures, fails fast, probes once after the pause, closes on success", async () => {
    let now = 0
    const b = new CircuitBreaker({ failures: 3, halfOpenAfterMs: 1000, now: () => now })
    let calls = 0
    const fail = async () => {
      calls++
      throw new Error("down")
    }
    for (let i = 0; i < 3; i++) await expect(b.execute(fail)).rejects.toThrow("down")
    expect(b.state).toBe("open")
    await expect(b.execute(fail)).rejects.toBeInstanceOf(BrokenCircuitError)
    expect(calls).toBe(3) // not called while open
    now = 1000
    expect(b.state).toBe("half-open")
    // one probe at a time
    let release!: () => void
    const slow = b.execute(() => new Promise<string>((r) => (release = () => r("ok"))))
    await expect(b.execute(async () => "x")).rejects.toBeInstanceOf(BrokenCircuitError)
    release()
    expect(await slow).toBe("ok")
    expect(b.state).toBe("closed")
  })

  it("a failed probe re-opens at once; non-counted errors do not trip it", async () => {
    let now = 0
    const b = new CircuitBreaker({ failures: 2, halfOpenAfterMs: 10, now: () => now, isFailure: (e) => (e as Error).message !== "4xx" })
    const err = (m: string) => async () => {
      throw new Error(m)
    }
    for (let i = 0; i < 5; i++) await expect(b.execute(err("4xx"))).rejects.toThrow()
    expect(b.state).toBe("closed")
    await expect(b.execute(err("down"))).rejects.toThrow()
    await expect(b.execute(async () => 1)).resolves.toBe(1) // success resets the count
    await expect(b.execute(err("down"))).rejects.toThrow()
    expect(b.state).toBe("closed")
    await expect(b.execute(err("down"))).rejects.toThrow()
    expect(b.state).toBe("open")
    now = 10
    await expect(b.execute(err("down"))).rejects.toThrow("down")
    expect(b.state).toBe("open")
  })

  it("works with the default clock and failure test (options left out)", async () => {
    const b = new CircuitBreaker({ failures: 1, halfOpenAfterMs: 60_000 })
    await expect(
      b.execute(async () => {
        throw new Error("down")
      }),
    ).rejects.toThrow("down")
    expect(b.state).toBe("open")
    await expect(b.execute(async () => 1)).rejects.toBeInstanceOf(BrokenCircuitError)
  })
})
