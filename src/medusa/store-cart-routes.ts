/**
 * BOUNDARY: Medusa's store cart routes answer through `res.json` once, with the cart.
 *
 * Assumes: @medusajs/medusa serves the store cart mutations below (api/store/carts/…/route.js), and
 * each answers with ONE `res.json` call whose body holds the cart as `cart` (`parent` for a deleted
 * line), after its workflow (and Medusa's cart refresh) ran; a workflow error carries the step's
 * error in `errors[].error`. A route middleware is documented (`defineMiddlewares`); replacing
 * `res.json` to see the route's answer, and the answer's shape, are what the plugin assumes.
 *
 * Buys: never a 200 with stale tax lines (issue 10/27: "block means block"). Where Medusa does not
 * recompute tax on a route (the promotion routes; the other routes when the refresh hook is not the
 * plugin's), the plugin refreshes the tax lines after the route and answers with the refreshed cart;
 * a refused refresh puts the cart back and answers the 400 instead of the route's 200
 * (integration-tests/http/checkout-block.spec.ts: every cart-mutating store route; checkout.spec.ts:
 * a promotion changes the quote). Without it a promotion route answers 200 with the tax of the cart
 * before the promotion.
 *
 * Contract test: store-cart-routes.test.ts (each route file exists and answers `res…json({ cart`
 * or `parent:`). Boot check: boot-check.ts (the route files); when one is missing its route simply
 * passes through (the answer is Medusa's).
 */
import { installedSource } from "./installed"

export interface StoreCartRoute {
  /** the route as a middleware matcher */
  matcher: string
  methods: readonly ("POST" | "DELETE")[]
  /** its file in @medusajs/medusa's dist */
  file: string
  /** the key of the answer that holds the cart */
  answers: "cart" | "parent"
}

/** The store cart mutations whose answers the plugin refreshes (src/checkout/store/tax-resync.ts). */
export const STORE_CART_MUTATIONS: readonly StoreCartRoute[] = [
  { matcher: "/store/carts/:id", methods: ["POST"], file: "api/store/carts/[id]/route.js", answers: "cart" },
  { matcher: "/store/carts/:id/line-items", methods: ["POST"], file: "api/store/carts/[id]/line-items/route.js", answers: "cart" },
  {
    matcher: "/store/carts/:id/line-items/:line_id",
    methods: ["POST", "DELETE"],
    file: "api/store/carts/[id]/line-items/[line_id]/route.js",
    answers: "parent",
  },
  {
    matcher: "/store/carts/:id/promotions",
    methods: ["POST", "DELETE"],
    file: "api/store/carts/[id]/promotions/route.js",
    answers: "cart",
  },
  {
    matcher: "/store/carts/:id/shipping-methods",
    methods: ["POST"],
    file: "api/store/carts/[id]/shipping-methods/route.js",
    answers: "cart",
  },
  { matcher: "/store/carts/:id/customer", methods: ["POST"], file: "api/store/carts/[id]/customer/route.js", answers: "cart" },
]

/** Pure: how a route's source answers — the keys of its `res.json(...)` / `res.status(…).json(...)` bodies that hold the cart. */
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

/** What differs from the assumption in the installed @medusajs/medusa; empty: it holds. */
export function storeCartRouteDifferences(
  read: (rel: string) => string | undefined = (rel) => installedSource("@medusajs/medusa", rel),
): string[] {
  const out: string[] = []
  for (const r of STORE_CART_MUTATIONS) {
    const src = read(r.file)
    if (src === undefined) out.push(`${r.file}: missing`)
    else if (!answerKeys(src).includes(r.answers)) out.push(`${r.file}: no res.json answer with \`${r.answers}\``)
  }
  return out
}

/**
 * Sees a route's one answer: `onAnswer(body, send)` is called with the body of the first `res.json`
 * call and the original `send`; it answers (now or later) through `send`. Later calls go straight
 * through.
 */
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
