import { z } from "zod"
import { notAField } from "../../../../http/validate"
import { NEXUS_RULES } from "../../../../nexus/thresholds"

const STATES = new Set(NEXUS_RULES.map((r) => r.state))

/** Any other query parameter: refused at `query.<name>`. */
const notAParameter = z.unknown().refine(() => false, { error: "not a parameter of this request (only date)" })

/** POST /admin/sales-tax/nexus/registrations: mark a state as registered (or not). */
export const AdminNexusRegistrationBody = z
  .object({
    state: z
      .string({ error: "state is required: a two-letter US state code (TX)" })
      .refine((s) => STATES.has(s), { error: "state must be a two-letter US state or DC code in capitals (TX)" }),
    registered: z.boolean({ error: "registered must be true or false" }),
  })
  .catchall(notAField)
export type AdminNexusRegistrationBody = z.infer<typeof AdminNexusRegistrationBody>

/** GET /admin/sales-tax/nexus?date=YYYY-MM-DD: the report as of a day (default today). */
export const AdminNexusQuery = z
  .object({
    date: z
      .string()
      .regex(/^(20\d\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, { error: "date must be YYYY-MM-DD between 2000 and 2099", abort: true })
      .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), {
        error: "date must be a real calendar day",
      })
      .optional(),
  })
  .catchall(notAParameter)
