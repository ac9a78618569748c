import { checkoutExemption } from "./exemption-snapshot"
import { recordRateId } from "../../medusa/tax-line-record"

describe("checkoutExemption", () => {
  it("reads the certificate the charged lines were priced under", () => {
    const lines = [
      { tax_lines: [{ data: null }] },
      { tax_lines: [{ data: { exemption_id: "cert-1", exemption_basis: "verified_customer" } }] },
    ]
    expect(checkoutExemption(lines)).toEqual({ exemptionId: "cert-1", basis: "verified_customer", customerId: null })
  })

  it("a Medusa without tax-line data (before 2.18) answers with holes: no exemption, no TypeError", () => {
    expect(checkoutExemption([{ tax_lines: [undefined, null] }, { tax_lines: null }, {}])).toBeNull()
  })

  it("a line whose data Medusa dropped (before 2.18): the certificate from its tax_rate_id", () => {
    const data = { exemption_id: "cert-2", exemption_basis: "verified_customer", exempt_customer_id: "cus_1" }
    const lines = [{ tax_lines: [{ tax_rate_id: recordRateId(data) }] }]
    expect(checkoutExemption(lines)).toEqual({ exemptionId: "cert-2", basis: "verified_customer", customerId: "cus_1" })
  })
})
