import { z } from "zod"
import { FILING_STATES } from "../../../../modules/sales-tax-filing/types"
import { ID_SHAPES } from "../../../../http/id-shapes"

export const ListFilingsQuery = z.object({
  state: z.enum(FILING_STATES).optional(),
  order_id: ID_SHAPES.filingOrder.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000_000, "offset must be at most 1000000000").default(0),
})

export const FilingParams = z.object({ orderId: ID_SHAPES.filingOrder })

/** A record as the admin sees it (the snapshot keeps no personal data; nothing secret is stored). */
export function filingView(r: object, scrub: (text: string) => string = (t) => t) {
  const { raw_charged_tax, raw_filed_tax, raw_requoted_tax, raw_tax_difference, ...rest } = r as Record<string, unknown>
  void raw_charged_tax
  void raw_filed_tax
  void raw_requoted_tax
  void raw_tax_difference
  const refunds = Array.isArray(rest.refunds)
    ? (rest.refunds as Record<string, unknown>[]).map(({ raw_refunded_tax, ...x }) => (void raw_refunded_tax, x))
    : rest.refunds
  const clean = (x: Record<string, unknown>) => (typeof x.last_error === "string" ? { ...x, last_error: scrub(x.last_error) } : x)
  return clean({ ...rest, refunds: Array.isArray(refunds) ? (refunds as Record<string, unknown>[]).map(clean) : refunds })
}
