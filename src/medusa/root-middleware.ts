/**
 * BOUNDARY: Medusa's router (its RoutesSorter) registers a root matcher before its own route middlewares,
 * and every answer, the error handler's too, goes through `res.json`. Buys: a guard that sees each request
 * before Medusa decodes it and each answer before it is sent. Contract test: root-middleware.test.ts.
 * Boot check: the installed sorter's order; nothing to turn off (named).
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse, MiddlewareRoute } from "@medusajs/framework/http"
import { installedModule, installedSource } from "./installed"

type Sorter = new (routes: { matcher: string }[]) => { sort(): { matcher: string }[] }

/** The matchers in the order Medusa's router registers them, or undefined. */
export function sortedMatchers(
  matchers: string[],
  sorter = installedModule<{ RoutesSorter?: Sorter }>("@medusajs/framework", "http/routes-sorter.js")?.RoutesSorter,
): string[] | undefined {
  return sorter ? new sorter(matchers.map((matcher) => ({ matcher }))).sort().map((r) => r.matcher) : undefined
}

/** Medusa's own kinds of middleware matchers the root one must come before. */
const THEIRS = ["/admin/*", "/store/*", "/admin/sales-tax/filings/:id"]

/** "/" when the router registers it first (older sorters drop it), else "*" (in Express both match every path; "*" decodes it). */
export function rootMatcher(sort: (m: string[]) => string[] | undefined = sortedMatchers): "/" | "*" {
  return sort([...THEIRS, "/"])?.[0] === "/" ? "/" : "*"
}

export function rootMiddleware(handler: (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) => void): MiddlewareRoute {
  return { matcher: rootMatcher(), middlewares: [handler] }
}

/** Every `res.json` call of this response goes through `answer` once (a second wrap is ignored). */
export function throughEveryAnswer(
  res: MedusaResponse,
  answer: (body: unknown, json: (body: unknown) => MedusaResponse) => MedusaResponse,
): void {
  const flagged: MedusaResponse & { __salesTaxAnswers?: boolean } = res
  if (flagged.__salesTaxAnswers) return
  flagged.__salesTaxAnswers = true
  const json = res.json.bind(res)
  ;(res as { json: (b: unknown) => MedusaResponse }).json = (body: unknown) => answer(body, json)
}

export function rootMiddlewareDifferences(
  sort: (m: string[]) => string[] | undefined = sortedMatchers,
  errorHandler: string | undefined = installedSource("@medusajs/framework", "http/middlewares/error-handler.js"),
): string[] {
  const out: string[] = []
  const root = rootMatcher(sort)
  if (sort([...THEIRS, root])?.[0] !== root) out.push("Medusa's router no longer registers a root middleware first")
  if (!errorHandler?.includes(".json(")) out.push("Medusa's error handler no longer answers through res.json")
  return out
}
