import { z } from "zod"
import { notAField } from "../../../../http/validate"
import { SETUP_FIX_IDS } from "../../../../setup/types"

/** POST /admin/sales-tax/setup/fix: one fix of the checklist, by id. */
export const AdminSetupFixBody = z
  .object({
    fix: z.enum(SETUP_FIX_IDS, { error: `must be one of ${SETUP_FIX_IDS.join(", ")}` }),
  })
  .catchall(notAField)
export type AdminSetupFixBody = z.infer<typeof AdminSetupFixBody>
