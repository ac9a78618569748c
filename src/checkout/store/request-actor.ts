/**
 * Records who the request is authenticated as (Medusa's `req.auth_context`, set by Medusa's own
 * authentication middleware before any plugin middleware runs) for the tax-line hooks, which see
 * only the cart. See src/checkout/hooks/request-actor.ts for why and what is trusted.
 */
import type {
  AuthenticatedMedusaRequest,
  MedusaNextFunction,
  MedusaRequest,
  MedusaResponse,
  MiddlewareRoute,
} from "@medusajs/framework/http"
import { actorOf, actorStorage } from "../hooks/request-actor"
import { runtimeOf } from "../../runtime"

export function recordRequestActor(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction): void {
  // read lazily: the hook runs later in this same request, after every authentication step
  actorStorage(runtimeOf(req.scope)).run(
    {
      actor: () => actorOf((req as MedusaRequest & Partial<Pick<AuthenticatedMedusaRequest, "auth_context">>).auth_context),
      container: req.scope,
      path: req.originalUrl,
    },
    () => next(),
  )
}

/** Every store cart route (tax is computed there) and every admin route (orders, edits, draft orders). */
export const requestActorMiddlewares: MiddlewareRoute[] = [
  { matcher: "/store/carts*", middlewares: [recordRequestActor] },
  { matcher: "/admin*", middlewares: [recordRequestActor] },
]
