/** Certificate content rules and statuses (issue 27), and the shopper cap's count. */
import { EXEMPTION_REASONS } from "../../../packages/contract/src/index"
import { certificateStatus, missingIdNumbers, needsIdNumber, REASONS_WITHOUT_ID_NUMBER } from "./certificate-rules"
import { shopperCertificateCount } from "../../certificates/shopper"
import type { CertificateStanding } from "../../service/exemptions/certificate-claims"

describe("identification numbers", () => {
  it("every reason but the federal and tribal governments needs one per state", () => {
    expect(EXEMPTION_REASONS.filter((r) => !needsIdNumber(r))).toEqual(["FederalGovernment", "TribalGovernment"])
    expect(REASONS_WITHOUT_ID_NUMBER).toEqual(["FederalGovernment", "TribalGovernment"])
  })
  it("names each state without one (blank counts as none), by index", () => {
    const states = [
      { abbreviation: "MN", identificationNumber: "ED-1" },
      { abbreviation: "WI", identificationNumber: "  " },
      { abbreviation: "IA" },
    ]
    expect(missingIdNumbers({ reason: "Resale", states }).map((m) => m.index)).toEqual([1, 2])
    expect(missingIdNumbers({ reason: "Resale", states })[1]!.message).toMatch(/^an identification number is required for IA/)
    expect(missingIdNumbers({ reason: "FederalGovernment", states })).toEqual([])
    expect(missingIdNumbers({ reason: "Resale", states: null })).toEqual([])
  })
})

const st = (o: Partial<CertificateStanding> = {}): CertificateStanding => ({
  createdBy: "customer",
  reviewStatus: "approved",
  rejectionReason: null,
  reviewedAt: null,
  usedOrderId: null,
  usedAt: null,
  ...o,
})

describe("certificateStatus", () => {
  it("used and rejected first, then disabled, pending, active; no row: active or disabled", () => {
    const on = { disabledAt: null }
    const off = { disabledAt: "2026-11-01T00:00:00Z" }
    expect(certificateStatus(off, st({ usedOrderId: "order_1" }))).toBe("used")
    expect(certificateStatus(off, st({ reviewStatus: "rejected" }))).toBe("rejected")
    expect(certificateStatus(off, st())).toBe("disabled")
    expect(certificateStatus(on, st({ reviewStatus: "pending" }))).toBe("pending")
    expect(certificateStatus(on, st())).toBe("active")
    expect(certificateStatus(on, undefined)).toBe("active")
    expect(certificateStatus(off, null)).toBe("disabled")
  })
  it("no row where the store reviews certificates it did not make: pending (never active by default); a claimed-then-placed one: used", () => {
    expect(certificateStatus({ disabledAt: null }, undefined, "review")).toBe("pending")
    expect(certificateStatus({ disabledAt: "2026-11-01T00:00:00Z" }, undefined, "review")).toBe("disabled")
    expect(certificateStatus({ disabledAt: null }, st({ usedAt: "2026-11-27T08:00:00Z" }))).toBe("used")
  })
})

describe("shopperCertificateCount (the cap)", () => {
  it("counts the customer's own active submissions, pending or approved, and certificates the plugin did not make, plus those in flight; not staff's, rejected, used or disabled ones", () => {
    const active = ["a", "b", "c", "d", "e", "f"].map((certificateId) => ({ certificateId, disabledAt: null }))
    const by = {
      a: st({ reviewStatus: "pending" }),
      b: st(),
      c: st({ createdBy: "staff" }),
      d: st({ reviewStatus: "rejected" }),
      e: st({ usedOrderId: "order_1" }),
      // f: made elsewhere (or a lost submission not adopted yet): counted
    }
    expect(shopperCertificateCount(active, by, 0)).toBe(3)
    expect(shopperCertificateCount(active, by, 3)).toBe(6)
    expect(shopperCertificateCount(active, { ...by, f: st({ usedAt: "2026-11-27T08:00:00Z" }) }, 0)).toBe(2)
    expect(shopperCertificateCount([{ certificateId: "a", disabledAt: "2026-11-01T00:00:00Z" }], by, 0)).toBe(0)
  })
})
