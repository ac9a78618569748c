/**
 * BOUNDARY: the app's error handler, replaced: Medusa's router uses the last middlewares file's
 * `errorHandler` (an app's own wins). Express decodes the path before any middleware, and Medusa's
 * handler answers an undecodable path (and, on older minors, a refused body) 500: ours answers 400/413.
 * Contract test: error-handler.test.ts. Boot check: `errorHandler` exported by @medusajs/framework/http.
 */
import { errorHandler, type MedusaNextFunction, type MedusaRequest, type MedusaResponse } from "@medusajs/framework/http"
import { installedSource } from "./installed"

/** Medusa's error handler with `first` tried before it: `first` answers the error (true) or leaves it to Medusa's handler. */
export function medusaErrorHandlerWith(first: (err: unknown, req: MedusaRequest, res: MedusaResponse) => boolean) {
  // a Medusa without the export: Express's own handler (the boot check logs it once)
  const medusa = typeof errorHandler === "function" ? errorHandler() : undefined
  return function salesTaxErrorHandler(err: unknown, req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): void {
    if (!res.headersSent && first(err, req, res)) return
    if (medusa) medusa(err, req, res, next)
    else next(err)
  }
}

export function errorHandlerRoutingDifferences(
  router: string | undefined = installedSource("@medusajs/framework", "http/router.js"),
  loader: string | undefined = installedSource("@medusajs/framework", "http/middleware-file-loader.js"),
): string[] {
  const out: string[] = []
  if (!router?.includes("use(sourceErrorHandler ?? (0, error_handler_1.errorHandler)())"))
    out.push("Medusa's router no longer uses a middlewares file's errorHandler")
  if (!loader?.includes("const errorHandler = middlewareConfig.errorHandler;"))
    out.push("Medusa's middleware loader no longer reads errorHandler")
  return out
}
