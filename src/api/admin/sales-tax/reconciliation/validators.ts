import { z } from "zod"
import { MONTH_RE } from "../../../../filing/reconciliation/amounts"
import { FIRST_YEAR, inYears, LAST_YEAR } from "../../../../filing/backfill/range"

export const MonthQuery = z.object({
  month: z
    .string({ error: "month is required, as YYYY-MM" })
    .regex(MONTH_RE, { message: "month must be YYYY-MM (e.g. 2026-10)", abort: true })
    .refine(inYears, `month must be from ${FIRST_YEAR}-01 to ${LAST_YEAR}-12`),
})

export const FixBody = z.object({ order_id: z.string().min(1, "order_id is required").max(100) })
