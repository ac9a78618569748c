/**
 * BOUNDARY: Medusa's store cart routes answer once through `res.json` with the cart (`parent` for a
 * deleted line) read with `req.queryConfig.fields`; a workflow error carries the step's in `errors[].error`.
 * Buys: never a 200 with stale tax lines. Contract test: store-cart-routes.test.ts. Boot check: the
 * route files; a missing one passes through.
 */
import { installedSource, medusaRouteFile } from "./installed"

/** The store cart mutations whose answers the plugin refreshes (src/checkout/store/tax-resync.ts); `answers`: the cart's key. */
export const STORE_CART_MUTATIONS = [
  { matcher: "/store/carts/:id", methods: ["POST"], answers: "cart" },
  { matcher: "/store/carts/:id/line-items", methods: ["POST"], answers: "cart" },
  { matcher: "/store/carts/:id/line-items/:line_id", methods: ["POST", "DELETE"], answers: "parent" },
  { matcher: "/store/carts/:id/promotions", methods: ["POST", "DELETE"], answers: "cart" },
  { matcher: "/store/carts/:id/shipping-methods", methods: ["POST"], answers: "cart" },
  { matcher: "/store/carts/:id/customer", methods: ["POST"], answers: "cart" },
] as const

/** A store cart route's path, its cart id captured. */
export const CART_RE = /^\/store\/carts\/([^/?#]+)/
/** `POST /store/carts/:id`: the one route that may give a cart another shipping address or region. */
export const CART_ITSELF_RE = /^\/store\/carts\/[^/?#]+\/?$/
/** The promotions routes (POST, DELETE): they change the cart's promotion links outside Medusa's refresh. */
export const PROMOTIONS_RE = /^\/store\/carts\/[^/?#]+\/promotions\/?$/

/** Pure: the keys of a route source's `res.json({…})` / `res.status(…).json({…})` bodies that hold the cart. */
export function answerKeys(source: string): ("cart" | "parent")[] {
  const keys = new Set<"cart" | "parent">()
  const re = /res(?:\.status\([^)]*\))?\.json\(\s*\{([^}]*)\}?/g
  for (const m of source.matchAll(re)) {
    // the body's property names: `cart` (shorthand) or `cart: …`, never a value such as `parent: cart`
    for (const prop of (m[1] ?? "").split(",")) {
      const name = prop.split(":")[0]!.trim()
      if (name === "cart" || name === "parent") keys.add(name)
    }
  }
  return [...keys]
}

const ANSWER_FIELDS = "req.queryConfig.fields"

/** The fields the route answers its cart with, when set. */
export const routeFields = (req: { queryConfig?: { fields?: string[] } }): string[] | undefined => req.queryConfig?.fields

export function storeCartRouteDifferences(
  read: (rel: string) => string | undefined = (rel) => installedSource("@medusajs/medusa", rel),
): string[] {
  const out: string[] = []
  for (const r of STORE_CART_MUTATIONS) {
    const file = medusaRouteFile(r.matcher)
    const src = read(file)
    if (src === undefined) out.push(`${file}: missing`)
    else if (!answerKeys(src).includes(r.answers)) out.push(`${file}: no res.json answer with \`${r.answers}\``)
    else if (!src.includes(ANSWER_FIELDS)) out.push(`${file}: its answer is not read with ${ANSWER_FIELDS}`)
  }
  return out
}

/** `onAnswer(body, send)` gets the first `res.json` call's body and answers (now or later) through `send`; later calls pass. */
export function interceptAnswer<R>(res: { json: (body: unknown) => R }, onAnswer: (body: unknown, send: (body: unknown) => R) => R): void {
  const original = res.json.bind(res)
  let handled = false
  res.json = (body: unknown) => {
    if (handled) return original(body)
    handled = true
    return onAnswer(body, original)
  }
}

/** A workflow's thrown error may carry the step's error inside `errors[].error`. */
export function unwrapWorkflowError(err: unknown): unknown {
  const e = err as { errors?: { error?: unknown }[] } | null
  const inner = Array.isArray(e?.errors) ? e!.errors.find((x) => x?.error)?.error : undefined
  return inner ?? err
}
