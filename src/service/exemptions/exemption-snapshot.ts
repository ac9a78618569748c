// The exemption an order is filed under: the one recorded on its charged tax lines at checkout, never
// looked up again (a certificate changed since changes nothing about what was charged).
import { recordedData } from "../../medusa/tax-line-record"

export interface ChargedTaxLine {
  tax_rate_id?: string | null
  data?: Record<string, unknown> | null
}

/** Pure: the certificate the charged lines were priced under, or null (taxed as a guest / not exempt). */
export function checkoutExemption(lines: readonly { tax_lines?: readonly (ChargedTaxLine | null | undefined)[] | null }[]) {
  for (const l of lines) {
    for (const t of l.tax_lines ?? []) {
      // as recorded in its tax_rate_id on every minor (Medusa drops `data` before 2.18), else its data
      const data = recordedData(t)
      const id = data?.exemption_id
      if (typeof id === "string" && id.length) {
        const basis = data?.exemption_basis
        const customer = data?.exempt_customer_id
        return {
          exemptionId: id,
          basis: typeof basis === "string" ? basis : null,
          customerId: typeof customer === "string" ? customer : null,
        }
      }
    }
  }
  return null
}
