import { exemptCustomer, RefusedCertificates } from "./exempt-quote"

describe("RefusedCertificates", () => {
  it("a refused certificate is skipped for max(TTL, 60 s), and said once while it is remembered", () => {
    const r = new RefusedCertificates()
    const t = 1_000_000
    expect(r.refuse("cert_1", 10, t)).toBe(true)
    expect(r.refuse("cert_1", 10, t + 1)).toBe(false)
    expect(r.refuse("cert_2", 300, t)).toBe(true)
    expect(r.at(t + 59_000)).toEqual(new Set(["cert_1", "cert_2"]))
    // cert_1's 60 s (its 10 s TTL is raised to 60) have passed at t + 1 + 60 s
    expect(r.at(t + 61_001)).toEqual(new Set(["cert_2"]))
    expect(r.refuse("cert_1", 10, t + 62_000)).toBe(true)
    expect(r.at(t + 121_000)).toEqual(new Set(["cert_1", "cert_2"]))
    expect(r.at(t + 300_000)).toEqual(new Set())
  })
})

describe("exemptCustomer", () => {
  it("only a customer id the hook verified may carry a certificate", () => {
    expect(exemptCustomer({ exemption_customer_id: "cus_1" })).toBe("cus_1")
    expect(exemptCustomer({ exemption_customer_id: "user_1" })).toBeNull()
    expect(exemptCustomer({ exemption_customer_id: null })).toBeNull()
    expect(exemptCustomer({})).toBeNull()
  })
})
