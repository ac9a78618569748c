import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { MONTH_RE } from "../../../../filing/reconciliation/amounts"
import { FIRST_YEAR, inYears, LAST_YEAR } from "../../../../filing/backfill/range"
import { sendZodError } from "../../../../http/answers"

export const MonthQuery = z.object({
  month: z
    .string({ error: "month is required, as YYYY-MM" })
    .regex(MONTH_RE, { message: "month must be YYYY-MM (e.g. 2026-10)", abort: true })
    .refine(inYears, `month must be from ${FIRST_YEAR}-01 to ${LAST_YEAR}-12`),
})

export const FixBody = z.object({ order_id: z.string().min(1, "order_id is required").max(100) })

/** Parses `schema` from the request's query or body; on failure answers 400 with located errors and returns undefined. */
export function parseOr400<T>(req: MedusaRequest, res: MedusaResponse, schema: z.ZodType<T>, part: "query" | "body"): T | undefined {
  const input = part === "query" ? (req.query ?? {}) : (req.body ?? {})
  const parsed = schema.safeParse(input)
  if (!parsed.success) {
    sendZodError(res, parsed.error, input, part)
    return undefined
  }
  return parsed.data
}
