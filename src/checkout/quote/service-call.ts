/** The quote call: one POST carts of a quote's service carts, within the quote's one deadline. */
import type { CalculateCartsRequest, CalculateCartsResponse, CartOut } from "../../service/contract"
import type { SalesTaxClient } from "../../service/client"
import { markServiceOk } from "./health"
import type { ProviderStats, Quote, ServiceCart } from "./quote-types"

/**
 * Pure: the quote of the service's answer: each line's tax, rate and TIC, and the origin its
 * cart was quoted from (the answer's carts matched by cart id, else by position).
 */
export function quoteOfAnswer(
  carts: readonly ServiceCart[],
  answer: Pick<CalculateCartsResponse, "items">,
  hash: string,
  exemptionId: string | null,
): Quote {
  const lines: Quote["lines"] = {}
  carts.forEach(({ cart, key }, k) => {
    const out: CartOut | undefined = answer.items.find((x) => x.cartId === cart.cartId) ?? answer.items[k]
    const origin = { locationId: key || null, address: cart.origin }
    for (const li of out?.lineItems ?? []) lines[li.itemId] = { amount: li.tax.amount, rate: li.tax.rate, tic: li.tic, origin }
  })
  return { hash, exemptionId, lines }
}

export interface ServiceCallDeps {
  stats: ProviderStats
  /** told after each answered call (a refused key of the connection is fixed: FailurePolicy.answered) */
  answered(client: SalesTaxClient): void
}

/** POST carts of the prepared body by `deadline` (epoch ms); the caller runs it through the breaker. */
export async function callService(
  deps: ServiceCallDeps,
  carts: readonly ServiceCart[],
  hash: string,
  exemptionId: string | null,
  client: SalesTaxClient,
  deadline: number,
  request: { body: CalculateCartsRequest; json: string },
): Promise<Quote> {
  deps.stats.serviceCalls++
  const res = await client.calculateCarts(request.body, { deadline, prepared: request })
  markServiceOk()
  deps.answered(client)
  return quoteOfAnswer(carts, res, hash, exemptionId)
}
