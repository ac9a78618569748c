/** The backfill's date range, checked at each edge (command line, admin route): UTC days YYYY-MM-DD, both included. */
import { parseArgs } from "node:util"
import { z } from "zod"

/** The years a date or month input may name: no Medusa v2 order predates 2000; beyond, dates are misread. */
export const FIRST_YEAR = 2000
export const LAST_YEAR = 2099

/** Whether a `YYYY…` string's year is FIRST_YEAR..LAST_YEAR (call after the format check). */
export const inYears = (s: string) => {
  const y = Number(s.slice(0, 4))
  return y >= FIRST_YEAR && y <= LAST_YEAR
}

const Day = z
  .string({ error: "must be a date YYYY-MM-DD" })
  .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, { message: "must be a date YYYY-MM-DD", abort: true })
  .refine(
    (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    "is not a calendar date",
  )
  .refine(inYears, `must be a day from ${FIRST_YEAR}-01-01 to ${LAST_YEAR}-12-31`)

export const BackfillRangeInput = z
  .object({
    from: Day,
    to: Day,
    batch_size: z.coerce.number().int().min(1).max(1000).optional(),
    concurrency: z.coerce.number().int().min(1).max(64).optional(),
  })
  .refine((v) => v.from <= v.to, { path: ["to"], message: "must not be before from" })
export type BackfillRangeInput = z.infer<typeof BackfillRangeInput>

/** [from 00:00 UTC, the day after `to` 00:00 UTC). */
export function rangeOf(v: Pick<BackfillRangeInput, "from" | "to">): { from: Date; to: Date } {
  const to = new Date(`${v.to}T00:00:00Z`)
  return { from: new Date(`${v.from}T00:00:00Z`), to: new Date(to.getTime() + 86_400_000) }
}

export const USAGE =
  "usage: npx medusa exec <path to>/backfill-sales-tax.js --from YYYY-MM-DD --to YYYY-MM-DD [--batch-size 200] [--concurrency 8]"

/** The exec script's arguments (`medusa exec file ...args`): --from, --to, --batch-size, --concurrency. */
export function parseBackfillArgs(args: string[]): { ok: true; value: BackfillRangeInput } | { ok: false; errors: string[] } {
  let values: Record<string, string | undefined>
  try {
    values = parseArgs({
      args: args.filter((a) => a !== "--"),
      options: { from: { type: "string" }, to: { type: "string" }, "batch-size": { type: "string" }, concurrency: { type: "string" } },
      strict: true,
      allowPositionals: false,
    }).values as Record<string, string | undefined>
  } catch (e) {
    return { ok: false, errors: [(e as Error).message, USAGE] }
  }
  // the object strips the unknown "batch-size" key
  const parsed = BackfillRangeInput.safeParse({ ...values, batch_size: values["batch-size"] })
  if (!parsed.success) {
    return {
      ok: false,
      errors: [...parsed.error.issues.map((i) => `--${String(i.path[0] ?? "").replace("_", "-")}: ${i.message}`), USAGE],
    }
  }
  return { ok: true, value: parsed.data }
}
