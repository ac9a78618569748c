import { QuoteTimeoutError, withDeadline } from "./deadline"

describe("withDeadline", () => {
  it("answers in time, or rejects with QuoteTimeoutError at the deadline (fake clock: exactly then, however busy the machine)", async () => {
    expect(await withDeadline(async () => 1, 100)).toBe(1)
    jest.useFakeTimers()
    try {
      let outcome: unknown = "pending"
      void withDeadline(() => new Promise((r) => setTimeout(r, 1000)), 50).then(
        (v) => (outcome = v),
        (e) => (outcome = e),
      )
      await jest.advanceTimersByTimeAsync(49)
      expect(outcome).toBe("pending")
      await jest.advanceTimersByTimeAsync(1)
      expect(outcome).toBeInstanceOf(QuoteTimeoutError)
      // an answer before the deadline wins, and its timer is cleared
      let early: unknown = "pending"
      void withDeadline(() => new Promise((r) => setTimeout(() => r("quote"), 30)), 50).then((v) => (early = v))
      await jest.advanceTimersByTimeAsync(30)
      expect(early).toBe("quote")
      expect(jest.getTimerCount()).toBe(1) // only the first call's 1000 ms work is left
    } finally {
      jest.useRealTimers()
    }
    expect(await withDeadline(async () => 1, 0).catch((e) => e)).toBeInstanceOf(QuoteTimeoutError)
  })
})
