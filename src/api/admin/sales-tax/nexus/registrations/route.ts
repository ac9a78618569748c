import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { setRegistered } from "../../../../../nexus/medusa"
import { bodyOf, handle } from "../../../../../http/answers"
import { AdminNexusRegistrationBody } from "../validators"

/** POST /admin/sales-tax/nexus/registrations { state, registered }: the merchant marks a state. */
export const POST = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const body = bodyOf(req, AdminNexusRegistrationBody)
  await setRegistered(req.scope, body.state, body.registered)
  res.json({ state: body.state, registered: body.registered })
})
