// The service-call log as the admin reads it (Settings → Sales Tax → Activity): query validation
// and the filters it becomes. The entries are written by service/call-log.ts.
import type { MedusaRequest } from "@medusajs/framework/http"
import { z } from "zod"
import { OPERATION_IDS } from "../../packages/contract/src/index"
import { SALES_TAX_MODULE } from "../constants"
import type { CallLogRow } from "./call-log"

const boolish = z.enum(["true", "false", "1", "0"], { error: "must be true or false" }).transform((v) => v === "true" || v === "1")

const medusaId = (prefixes: string[], what: string) =>
  z
    .string()
    .regex(
      new RegExp(`^(${prefixes.join("|")})_[0-9A-Za-z][0-9A-Za-z_]{0,63}$`),
      `must be ${what} (${prefixes.map((p) => `${p}_…`).join(", ")})`,
    )

const integer = () => z.coerce.number({ error: "must be a number" }).int("must be an integer")

export const ActivityQuery = z
  .object({
    operation: z.enum(OPERATION_IDS, { error: `must be one of ${OPERATION_IDS.join(", ")}` }).optional(),
    /** 2xx, 4xx, 5xx, or "none" (no answer: timeout or network error) */
    status: z.enum(["2xx", "4xx", "5xx", "none"], { error: "must be 2xx, 4xx, 5xx or none" }).optional(),
    /** the service's order id: a Medusa order's, or an exchange's or claim's own filing */
    order_id: medusaId(["order", "oexc", "claim"], "an order id").optional(),
    cart_id: medusaId(["cart"], "a cart id").optional(),
    errors_only: boolish.optional(),
    limit: integer().min(1, "must be between 1 and 100").max(100, "must be between 1 and 100").default(50),
    offset: integer().min(0, "must be 0 or more").max(1_000_000, "must be at most 1000000").default(0),
  })
  // each other field refused at its own location (as src/http/validate.ts notAField: not imported, http sits above service)
  .catchall(z.unknown().refine(() => false, { error: "not a field of this request" }))
export type ActivityQuery = z.infer<typeof ActivityQuery>

export function activityFilter(q: ActivityQuery): Record<string, unknown> {
  const and: Record<string, unknown>[] = []
  if (q.operation) and.push({ operation: q.operation })
  if (q.order_id) and.push({ order_id: q.order_id })
  if (q.cart_id) and.push({ cart_id: q.cart_id })
  if (q.status === "none") and.push({ status: null })
  else if (q.status) {
    const from = Number(q.status[0]) * 100
    and.push({ status: { $gte: from, $lt: from + 100 } })
  }
  if (q.errors_only) and.push({ $or: [{ status: null }, { status: { $gte: 400 } }, { error_code: { $ne: null } }] })
  return and.length ? { $and: and } : {}
}

/** An entry as the module lists it: the row the writer stored, with its id. */
export type ActivityEntry = CallLogRow & { id: string }

interface CallLogReader {
  listAndCountCallLogEntries(filter: unknown, config: unknown): Promise<[ActivityEntry[], number]>
}

const LIST_FIELDS = [
  "id",
  "at",
  "operation",
  "connection_id",
  "status",
  "latency_ms",
  "attempt",
  "cart_id",
  "order_id",
  "return_id",
  "error_title",
  "error_code",
] as const

/** The entries of a query (without bodies), newest first, and their count. */
export async function listActivity(scope: MedusaRequest["scope"], q: ActivityQuery) {
  const [entries, count] = await scope.resolve<CallLogReader>(SALES_TAX_MODULE).listAndCountCallLogEntries(activityFilter(q), {
    select: [...LIST_FIELDS],
    order: { at: "DESC", id: "DESC" },
    skip: q.offset,
    take: q.limit,
  })
  return { entries, count, limit: q.limit, offset: q.offset }
}

/** One entry, with its bodies when `log.bodies` stored them; undefined when there is none. */
export async function activityEntry(scope: MedusaRequest["scope"], id: string): Promise<ActivityEntry | undefined> {
  const [entries] = await scope.resolve<CallLogReader>(SALES_TAX_MODULE).listAndCountCallLogEntries({ id }, { take: 1 })
  return entries[0]
}
