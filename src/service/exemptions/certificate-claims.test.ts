/** Lost submissions, placeholders and single-purchase claims: the pure decisions. */
import {
  CLAIM_HOLD_MS,
  LOST_PREFIX,
  PLACEHOLDER_STALE_MS,
  RESERVED_PREFIX,
  claimDecision,
  claimedByOther,
  createMayHaveWritten,
  isPlaceholder,
  reconcilePlaceholders,
} from "./certificate-claims"
import { SalesTaxError } from "../client"

const err = (code: "http" | "timeout" | "network" | "validation" | "response_validation", status: number | null = null) =>
  new SalesTaxError({ operation: "createCertificate", status, title: "t", retryable: false, code })

describe("createMayHaveWritten", () => {
  it("only a refusal (4xx but 408) or a request never sent proves nothing was written", () => {
    expect(createMayHaveWritten(err("http", 500))).toBe(true)
    expect(createMayHaveWritten(err("http", 503))).toBe(true)
    expect(createMayHaveWritten(err("http", 408))).toBe(true)
    expect(createMayHaveWritten(err("timeout"))).toBe(true)
    expect(createMayHaveWritten(err("network"))).toBe(true)
    expect(createMayHaveWritten(err("response_validation", 201))).toBe(true)
    expect(createMayHaveWritten(new Error("socket hang up"))).toBe(true)
    expect(createMayHaveWritten(err("http", 422))).toBe(false)
    expect(createMayHaveWritten(err("http", 429))).toBe(false)
    expect(createMayHaveWritten(err("validation"))).toBe(false)
  })
})

describe("reconcilePlaceholders", () => {
  const now = Date.parse("2026-11-27T08:00:00Z")
  const at = (msAgo: number) => new Date(now - msAgo)
  const lost = { id: "row_lost", certificateId: `${LOST_PREFIX}1`, createdAt: at(60_000) }
  const inFlight = { id: "row_flight", certificateId: `${RESERVED_PREFIX}2`, createdAt: at(1_000) }
  const crashed = { id: "row_crashed", certificateId: `${RESERVED_PREFIX}3`, createdAt: at(PLACEHOLDER_STALE_MS + 1) }

  it("a lost submission adopts the customer's certificate that has no row (pending), oldest first; one in flight is left alone", () => {
    const unknown = [
      { certificateId: "newer", createdDate: "2026-11-27T07:59:30Z" },
      { certificateId: "older", createdDate: "2026-11-27T07:59:00Z" },
    ]
    expect(reconcilePlaceholders([inFlight, lost], unknown, now)).toEqual({
      adopt: [{ rowId: "row_lost", certificateId: "older" }],
      drop: [],
    })
    expect(reconcilePlaceholders([inFlight], unknown, now)).toEqual({ adopt: [], drop: [] })
  })

  it("a lost or crashed submission the service never wrote is dropped once stale, not before", () => {
    expect(reconcilePlaceholders([lost], [], now)).toEqual({ adopt: [], drop: [] })
    expect(reconcilePlaceholders([lost], [], now + PLACEHOLDER_STALE_MS)).toEqual({ adopt: [], drop: ["row_lost"] })
    expect(reconcilePlaceholders([crashed, inFlight], [], now)).toEqual({ adopt: [], drop: ["row_crashed"] })
    expect(reconcilePlaceholders([crashed], [{ certificateId: "c", createdDate: "2026-11-27T07:00:00Z" }], now).adopt).toEqual([
      { rowId: "row_crashed", certificateId: "c" },
    ])
  })

  it("placeholders are told from certificate ids", () => {
    expect([isPlaceholder(`${RESERVED_PREFIX}x`), isPlaceholder(`${LOST_PREFIX}x`), isPlaceholder("5b0c…")]).toEqual([true, true, false])
  })
})

describe("claimDecision (a single-purchase certificate at completion)", () => {
  const now = Date.parse("2026-11-27T08:00:00Z")
  const free = { usedOrderId: null, usedAt: null, claimedCartId: null, claimedAt: null }
  const heldBy = (cartId: string, msAgo: number) => ({ ...free, claimedCartId: cartId, claimedAt: new Date(now - msAgo).toISOString() })

  it("free or already this cart's: claim; used or held by another cart: refuse", () => {
    expect(claimDecision(undefined, "cart_a", now)).toBe("claim")
    expect(claimDecision(free, "cart_a", now)).toBe("claim")
    expect(claimDecision(heldBy("cart_a", 1_000), "cart_a", now)).toBe("claim")
    expect(claimDecision(heldBy("cart_a", 1_000), "cart_b", now)).toBe("refuse")
    expect(claimDecision({ ...free, usedOrderId: "order_1" }, "cart_a", now)).toBe("refuse")
    expect(claimDecision({ ...heldBy("cart_a", 1_000), usedAt: "2026-11-27T07:59:59Z" }, "cart_a", now)).toBe("refuse")
  })

  it("a claim held past the hold: taken over when its cart never became an order, final when it did", () => {
    const old = heldBy("cart_a", CLAIM_HOLD_MS + 1)
    expect(claimDecision(old, "cart_b", now)).toBe("ask")
    expect(claimDecision(old, "cart_b", now, false)).toBe("claim")
    expect(claimDecision(old, "cart_b", now, true)).toBe("final")
    expect(claimedByOther(old, "cart_b", now)).toBe(false)
    expect(claimedByOther(heldBy("cart_a", 1_000), "cart_b", now)).toBe(true)
    expect(claimedByOther(heldBy("cart_a", 1_000), null, now)).toBe(true)
    expect(claimedByOther(heldBy("cart_a", 1_000), "cart_a", now)).toBe(false)
  })
})
