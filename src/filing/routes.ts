/** What the admin's filing and reconciliation routes (src/api) share: their zod inputs, the `:orderId` context, and the record
 * as the admin sees it (no raw_ amounts, service texts scrubbed). */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { sendError, sendZodError, serviceText } from "../http/answers"
import { ID_SHAPES } from "../http/id-shapes"
import { notAField } from "../http/validate"
import type SalesTaxFilingModuleService from "../modules/sales-tax-filing/service"
import { FILING_STATES, SALES_TAX_FILING_MODULE } from "../modules/sales-tax-filing/types"
import { normalizeUsState, normalizeUsZip, zipText } from "../service/address/us-address"
import { FIRST_YEAR, inYears, LAST_YEAR } from "./backfill/range"
import { MONTH_RE } from "./reconciliation/amounts"

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

/** The corrected destination: a state (code, "US-TX" or name) and a ZIP (5 or 9 digits), normalized. */
export const RequoteBody = z
  .object({
    state: z
      .string({ error: "state is required (a US state code or name, e.g. TX)" })
      .max(40, "state must be at most 40 characters")
      .transform((s, ctx) => {
        const code = normalizeUsState(s)
        if (!code) ctx.addIssue({ code: "custom", message: "state must be a US state or DC (code like TX, or name like Texas)" })
        return code ?? ""
      }),
    zip: z
      .string({ error: "zip is required (5 digits, or ZIP+4)" })
      .max(20, "zip must be at most 20 characters")
      .transform((s, ctx) => {
        const z5 = normalizeUsZip(s)
        if (!z5) ctx.addIssue({ code: "custom", message: "zip must be a US ZIP: 5 digits, or ZIP+4 (78701-1234)" })
        return z5 ? zipText(z5) : ""
      }),
  })
  .catchall(notAField)

const FilingParams = z.object({ orderId: ID_SHAPES.filingOrder })

export const MonthQuery = z.object({
  month: z
    .string({ error: "month is required, as YYYY-MM" })
    .regex(MONTH_RE, { message: "month must be YYYY-MM (e.g. 2026-10)", abort: true })
    .refine(inYears, `month must be from ${FIRST_YEAR}-01 to ${LAST_YEAR}-12`),
})

export const FixBody = z.object({ order_id: z.string().min(1, "order_id is required").max(100) })

/** A record as the admin sees it: no raw_ twins of its amounts, service texts scrubbed (the snapshot keeps no personal data). */
export function filingView(r: object, scrub: (text: string) => string = (t) => t) {
  const clean = (x: Record<string, unknown>) => {
    const out = Object.fromEntries(Object.entries(x).filter(([k]) => !k.startsWith("raw_")))
    return typeof out.last_error === "string" ? { ...out, last_error: scrub(out.last_error) } : out
  }
  const rec = clean(r as Record<string, unknown>)
  return Array.isArray(rec.refunds) ? { ...rec, refunds: (rec.refunds as Record<string, unknown>[]).map(clean) } : rec
}

/** The filing module of a request and a scrubber of the service's texts for its answers. */
export function filingModuleOf(req: MedusaRequest) {
  return {
    svc: req.scope.resolve<SalesTaxFilingModuleService>(SALES_TAX_FILING_MODULE),
    scrub: (t: string) => serviceText(req.scope, t),
  }
}

/** The `:orderId` of a filing route with the filing module; not an order id (order_…, oexc_…, claim_…): a located 400, undefined. */
export function filingRouteContext(req: MedusaRequest, res: MedusaResponse) {
  const p = FilingParams.safeParse(req.params)
  if (p.success) return { orderId: p.data.orderId, ...filingModuleOf(req) }
  sendZodError(res, p.error, req.params, "path")
}

export function filingNotFound(res: MedusaResponse, orderId: string): void {
  sendError(res, 404, "not_found", `No filing record for ${orderId}`)
}

/** The filing record of `orderId` with its refunds, as the admin sees it; undefined when none. */
export async function readFilingView(svc: SalesTaxFilingModuleService, orderId: string, scrub?: (text: string) => string) {
  const [rec] = await svc.listFilingRecords({ order_id: orderId }, { relations: ["refunds"], take: 1 })
  return rec ? filingView(rec, scrub) : undefined
}
