import { z } from "zod"
import { FILING_STATES } from "../../../../modules/sales-tax-filing/types"
import { ID_SHAPES } from "../../../../http/id-shapes"
import { notAField } from "../../../../http/validate"

export const ListFilingsQuery = z.object({
  state: z.enum(FILING_STATES).optional(),
  order_id: ID_SHAPES.filingOrder.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000_000, "offset must be at most 1000000000").default(0),
})

/** POST …/:orderId/credits. */
export const FileCreditBody = z
  .object({
    refund_id: z
      .string({ error: "refund_id must be the refund's id (ref_…)" })
      .min(1, "refund_id is required: the refund's id (ref_…)")
      .max(100, "refund_id must be at most 100 characters"),
  })
  .catchall(notAField)

export const FilingParams = z.object({ orderId: ID_SHAPES.filingOrder })

/** A record as the admin sees it: no raw_ twins of its amounts, service texts scrubbed (the snapshot keeps no personal data). */
export function filingView(r: object, scrub: (text: string) => string = (t) => t) {
  const clean = (x: Record<string, unknown>) => {
    const out = Object.fromEntries(Object.entries(x).filter(([k]) => !k.startsWith("raw_")))
    return typeof out.last_error === "string" ? { ...out, last_error: scrub(out.last_error) } : out
  }
  const rec = clean(r as Record<string, unknown>)
  return Array.isArray(rec.refunds) ? { ...rec, refunds: (rec.refunds as Record<string, unknown>[]).map(clean) } : rec
}
