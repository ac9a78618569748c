import { z } from "zod"
import { SETUP_FIX_IDS } from "../../../../setup/checks"

/** POST /admin/sales-tax/setup/fix: one fix of the checklist, by id. */
export const AdminSetupFixBody = z.strictObject({
  fix: z.enum(SETUP_FIX_IDS, { error: `must be one of ${SETUP_FIX_IDS.join(", ")}` }),
})
export type AdminSetupFixBody = z.infer<typeof AdminSetupFixBody>
