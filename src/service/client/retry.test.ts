import fc from "fast-check"
import { OPERATION_IDS } from "../../../packages/contract/src/index"
import { backoffDelay, isRetryable, nextDelay, parseRetryAfter, resolvePolicy, RETRYABLE_STATUSES } from "./retry"

describe("backoffDelay", () => {
  it("stays within [cap/2, cap] where cap = min(maxDelay, base * 2^(retry-1))", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retry, base, max, r) => {
          const d = backoffDelay(retry, { baseDelayMs: base, maxDelayMs: max }, r)
          const cap = Math.min(max, base * 2 ** (retry - 1))
          expect(d).toBeGreaterThanOrEqual(Math.floor(cap / 2))
          expect(d).toBeLessThanOrEqual(Math.ceil(cap))
          expect(d).toBeGreaterThan(0)
        },
      ),
    )
  })

  it("grows with the retry number until the cap (for the same jitter draw)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (retry, r) => {
        const p = { baseDelayMs: 100, maxDelayMs: 1_000_000 }
        expect(backoffDelay(retry + 1, p, r)).toBeGreaterThanOrEqual(backoffDelay(retry, p, r))
      }),
    )
    const p = { baseDelayMs: 100, maxDelayMs: 800 }
    expect(backoffDelay(1, p, 0.999)).toBeLessThanOrEqual(100)
    expect(backoffDelay(10, p, 0.999)).toBeLessThanOrEqual(800)
    expect(backoffDelay(10, p, 0)).toBe(400)
  })

  it("jitters: different draws give different delays", () => {
    const p = { baseDelayMs: 1000, maxDelayMs: 10_000 }
    expect(backoffDelay(3, p, 0.1)).not.toBe(backoffDelay(3, p, 0.9))
  })
})

describe("parseRetryAfter", () => {
  it("reads delta-seconds", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (s) => {
        expect(parseRetryAfter(String(s))).toBe(s * 1000)
        expect(parseRetryAfter(` ${s} `)).toBe(s * 1000)
      }),
    )
    expect(parseRetryAfter("1.5")).toBe(1500)
  })

  it("reads HTTP dates relative to now (and 0 for a past date)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_000_000_000, max: 4_000_000_000 }),
        fc.integer({ min: -100_000, max: 100_000 }),
        (nowSec, deltaSec) => {
          const now = nowSec * 1000
          const header = new Date(now + deltaSec * 1000).toUTCString()
          expect(parseRetryAfter(header, now)).toBe(Math.max(0, deltaSec * 1000))
        },
      ),
    )
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", Date.parse("2015-10-21T07:27:00Z"))).toBe(60_000)
  })

  it("ignores absent and garbage values", () => {
    for (const v of [undefined, null, "", "  ", "soon", "-5", "12abc", "1e3", "NaN"]) {
      expect(parseRetryAfter(v as string | undefined)).toBeUndefined()
    }
    expect(parseRetryAfter(["3", "9"])).toBe(3000)
  })
})

describe("nextDelay", () => {
  it("never waits less than Retry-After, nor less than the backoff", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }),
        fc.option(fc.integer({ min: 0, max: 120_000 }), { nil: undefined }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retry, ra, r) => {
          const p = { baseDelayMs: 50, maxDelayMs: 2000 }
          const d = nextDelay(retry, p, ra, r)
          expect(d).toBeGreaterThanOrEqual(backoffDelay(retry, p, r))
          if (ra !== undefined) expect(d).toBeGreaterThanOrEqual(ra)
        },
      ),
    )
  })
})

describe("isRetryable", () => {
  it("retries exactly 429, 500, 502, 503, 504 for idempotent operations", () => {
    for (let status = 100; status < 600; status++) {
      expect(isRetryable("calculateCarts", { kind: "status", status })).toBe([429, 500, 502, 503, 504].includes(status))
      expect(isRetryable("getOrder", { kind: "status", status })).toBe(RETRYABLE_STATUSES.has(status))
    }
  })

  it("never retries 400, 401, 403, 404, 409, 422 for any operation", () => {
    for (const op of OPERATION_IDS) {
      for (const status of [400, 401, 403, 404, 409, 422]) expect(isRetryable(op, { kind: "status", status })).toBe(false)
    }
  })

  it("retries timeouts and network errors except for certificate creation", () => {
    for (const op of OPERATION_IDS) {
      const expected = op !== "createCertificate"
      expect(isRetryable(op, { kind: "timeout" })).toBe(expected)
      expect(isRetryable(op, { kind: "network", connectRefused: false })).toBe(expected)
    }
  })

  it("retries certificate creation only when the service certainly did not process it", () => {
    expect(isRetryable("createCertificate", { kind: "status", status: 429 })).toBe(true)
    expect(isRetryable("createCertificate", { kind: "status", status: 500 })).toBe(false)
    expect(isRetryable("createCertificate", { kind: "status", status: 503 })).toBe(false)
    expect(isRetryable("createCertificate", { kind: "network", connectRefused: true })).toBe(true)
  })
})

describe("resolvePolicy", () => {
  it("fills defaults, longer total budget in background", () => {
    const fg = resolvePolicy(undefined, false)
    const bg = resolvePolicy(undefined, true)
    expect(fg.maxAttempts).toBeGreaterThan(1)
    expect(bg.maxElapsedMs).toBeGreaterThan(fg.maxElapsedMs)
    expect(resolvePolicy({ maxElapsedMs: 1234 }, true).maxElapsedMs).toBe(1234)
  })

  it("false = a single attempt", () => {
    expect(resolvePolicy(false, false).maxAttempts).toBe(1)
  })

  it("rejects nonsense", () => {
    expect(() => resolvePolicy({ maxAttempts: 0 }, false)).toThrow(TypeError)
    expect(() => resolvePolicy({ baseDelayMs: -1 }, false)).toThrow(TypeError)
    expect(() => resolvePolicy({ maxDelayMs: Number.NaN }, false)).toThrow(TypeError)
  })
})
