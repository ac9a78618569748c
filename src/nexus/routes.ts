// The admin's nexus routes: the report as of a day, and a state marked registered (or not).
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { bodyOf, parseOr400 } from "../http/answers"
import { notAField } from "../http/validate"
import { nexusReport, setRegistered } from "./medusa"
import { NEXUS_RULES } from "./thresholds"

const STATES = new Set(NEXUS_RULES.map((r) => r.state))

const notAParameter = z.unknown().refine(() => false, { error: "not a parameter of this request (only date)" })

export const AdminNexusRegistrationBody = z
  .object({
    state: z
      .string({ error: "state is required: a two-letter US state code (TX)" })
      .refine((s) => STATES.has(s), { error: "state must be a two-letter US state or DC code in capitals (TX)" }),
    registered: z.boolean({ error: "registered must be true or false" }),
  })
  .catchall(notAField)

export const AdminNexusQuery = z
  .object({
    date: z
      .string()
      .regex(/^(20\d\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, { error: "date must be YYYY-MM-DD between 2000 and 2099", abort: true })
      // zod's ISO date: a day the calendar has (leap years too)
      .pipe(z.iso.date({ error: "date must be a real calendar day" }))
      .optional(),
  })
  .catchall(notAParameter)

/** GET /admin/sales-tax/nexus[?date=YYYY-MM-DD] */
export async function getNexus(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const q = parseOr400(req, res, AdminNexusQuery, "query")
  if (!q) return
  res.json({ nexus: await nexusReport(req.scope, q.date ? new Date(`${q.date}T12:00:00Z`) : new Date()) })
}

/** POST /admin/sales-tax/nexus/registrations { state, registered }. */
export async function postRegistration(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const body = bodyOf(req, AdminNexusRegistrationBody)
  await setRegistered(req.scope, body.state, body.registered)
  res.json({ state: body.state, registered: body.registered })
}
