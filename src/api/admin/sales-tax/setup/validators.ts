import { z } from "zod"
import { SETUP_FIX_IDS } from "../../../../setup/checks"

/** Any other field: refused at its own location (`body.<field>`), not as an unknown key of the whole body. */
const notAField = z.unknown().refine(() => false, { error: "not a field of this request" })

/** POST /admin/sales-tax/setup/fix: one fix of the checklist, by id. */
export const AdminSetupFixBody = z
  .object({
    fix: z.enum(SETUP_FIX_IDS, { error: `must be one of ${SETUP_FIX_IDS.join(", ")}` }),
  })
  .catchall(notAField)
export type AdminSetupFixBody = z.infer<typeof AdminSetupFixBody>
