/**
 * BOUNDARY: the app's error handler, replaced (`defineMiddlewares({ errorHandler })`, src/api/middlewares.ts).
 *
 * Assumes: (1) Medusa's router (@medusajs/framework, http/router.js) uses the `errorHandler` of the
 * last middlewares file that sets one instead of its own `errorHandler()`, so a plugin's handler
 * serves the whole app unless the app sets its own (then the app's wins and the plugin's 400 below
 * is lost: a broken path answers 500 again, nothing else changes); (2) Medusa's own handler, which
 * every error but one is handed to unchanged, is `errorHandler()` of @medusajs/framework/http;
 * (3) that handler answers Express's failure to decode a path parameter (a URIError with status
 * 400, not an http-errors error) with 500 "An unknown error occurred." (why the reach-in exists).
 *
 * Buys: a request to one of the plugin's routes whose path cannot be decoded (broken
 * %-encoding, e.g. GET /admin/sales-tax/filings/%E0%A4%A) is answered 400 with a located error
 * instead of 500 (integration-tests/http/hostile-input.spec.ts "NUL and broken percent-encoding":
 * 7 paths; without it they answer 500). Express decodes the path in Medusa's own `/admin*`
 * middlewares, before any plugin middleware runs: no route middleware can see the request first.
 *
 * Contract test: error-handler.test.ts (the router's choice, and Medusa's 500 for the decode error
 * on a real Express app). Boot check: boot-check.ts (`errorHandler` exported by @medusajs/framework/http).
 */
import { errorHandler, type MedusaNextFunction, type MedusaRequest, type MedusaResponse } from "@medusajs/framework/http"
import { installedSource } from "./installed"

/** Answers the error itself (true) or leaves it to Medusa's handler (false). */
export type ErrorAnswer = (err: unknown, req: MedusaRequest, res: MedusaResponse) => boolean

/** Medusa's error handler with `first` tried before it. */
export function medusaErrorHandlerWith(first: ErrorAnswer) {
  // a Medusa without the export: Express's own handler (the boot check logs it once)
  const medusa = typeof errorHandler === "function" ? errorHandler() : undefined
  return function salesTaxErrorHandler(err: unknown, req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): void {
    if (!res.headersSent && first(err, req, res)) return
    if (medusa) medusa(err, req, res, next)
    else next(err)
  }
}

/** The lines of http/router.js and http/middleware-file-loader.js that make a middlewares file's errorHandler the app's. */
export const ROUTER_USES_FILE_ERROR_HANDLER = "use(sourceErrorHandler ?? (0, error_handler_1.errorHandler)())"
export const LOADER_TAKES_ERROR_HANDLER = "const errorHandler = middlewareConfig.errorHandler;"

/** What differs from assumption (1) in the installed framework; empty: it holds. */
export function errorHandlerRoutingDifferences(
  router: string | undefined = installedSource("@medusajs/framework", "http/router.js"),
  loader: string | undefined = installedSource("@medusajs/framework", "http/middleware-file-loader.js"),
): string[] {
  const out: string[] = []
  if (!router?.includes(ROUTER_USES_FILE_ERROR_HANDLER)) out.push("Medusa's router no longer uses a middlewares file's errorHandler")
  if (!loader?.includes(LOADER_TAKES_ERROR_HANDLER)) out.push("Medusa's middleware loader no longer reads errorHandler")
  return out
}
