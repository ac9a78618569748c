/** The tax lines of a service answer: each line's rate is the one whose Medusa tax on it is the service's amount, to the cent. */
import type { ItemTaxCalculationLine, ItemTaxLineDTO, ShippingTaxCalculationLine, ShippingTaxLineDTO } from "@medusajs/framework/types"
import { SHIPPING_ITEM_PREFIX, TAX_LINE_CODE, TAX_LINE_CODE_EXEMPT, TAX_LINE_NAME, TAX_LINE_NAME_EXEMPT } from "../../constants"
import { dec } from "../../../packages/contract/src/money"
import { itemFigures, itemTaxable, shippingFigures } from "../../service/cart/build-service-cart"
import type { CartSnapshot } from "../../service/cart/context"
import { solvedRate } from "../inclusive/back-solve"
import { backSolveInclusiveRate } from "../inclusive/inclusive"
import type { Quote, QuoteLine, TaxLine, TaxLineOut } from "./quote-types"

export interface TaxLineDeps {
  providerId: string
  warn(message: string): void
}

/** The tax lines of a quote, items then shipping; a line the snapshot or the quote lacks (quantity 0) gets none. */
export function taxLines(
  snapshot: CartSnapshot,
  itemLines: readonly ItemTaxCalculationLine[],
  shippingLines: readonly ShippingTaxCalculationLine[],
  quote: Quote,
  deps: TaxLineDeps,
): TaxLine[] {
  const out: TaxLine[] = []
  const itemAt = inOrder(snapshot.items)
  for (let k = 0; k < itemLines.length; k++) {
    const id = itemLines[k]!.line_item.id
    const q = quote.lines[id]
    const it = q && itemAt(id, k)
    if (!it) continue
    const line = it.is_tax_inclusive
      ? inclusiveLine(dec(it.unit_price).times(it.quantity), it.quantity, it.discount, q, quote, deps)
      : exclusiveLine(itemFigures(it) ?? { taxable: itemTaxable(it) }, q, quote, deps)
    line.line_item_id = id
    out.push(line as ItemTaxLineDTO)
  }
  const shipAt = inOrder(snapshot.shipping_methods)
  for (let k = 0; k < shippingLines.length; k++) {
    const id = shippingLines[k]!.shipping_line.id
    const q = quote.lines[`${SHIPPING_ITEM_PREFIX}${id}`]
    const sm = q && shipAt(id, k)
    if (!sm) continue
    const line = sm.is_tax_inclusive
      ? inclusiveLine(dec(sm.amount), "1", sm.discount, q, quote, deps)
      : exclusiveLine(shippingFigures(sm), q, quote, deps)
    line.shipping_line_id = id
    out.push(line as ShippingTaxLineDTO)
  }
  return out
}

/** The snapshot's entry of the k-th line: its k-th entry when that is the line's (Medusa passes the cart's order), else by id. */
function inOrder<T extends { id: string }>(entries: readonly T[]): (id: string, k: number) => T | undefined {
  let byId: Map<string, T> | undefined
  return (id, k) => (entries[k]?.id === id ? entries[k] : (byId ??= new Map(entries.map((e) => [e.id, e]))).get(id))
}

/** A tax-inclusive line: the rate whose Medusa inclusive tax on the shown price is the service's tax on the net. */
export function inclusiveLine(
  price: ReturnType<typeof dec>,
  quantity: string,
  discount: string,
  q: QuoteLine,
  quote: Quote,
  deps: TaxLineDeps,
): TaxLineOut {
  const solved = backSolveInclusiveRate({
    price,
    quantity,
    inclusiveDiscount: discount,
    amount: q.amount,
    displayRatePct: dec(q.rate).times(100).toNumber(),
  })
  if (!solved.exact) {
    deps.warn(`sales-tax: inclusive line tax ${q.amount} cannot be matched to the cent by a stored rate (price ${price.toString()})`)
  }
  const line = lineOf(q, quote, solved.rate, deps.providerId)
  line.data.tax_inclusive = true
  line.data.net = q.net ?? null
  line.data.inclusive_residual = q.residual ?? "0"
  return line
}

export function exclusiveLine(
  fig: { taxable: ReturnType<typeof dec>; taxableKey?: string },
  q: QuoteLine,
  quote: Quote,
  deps: TaxLineDeps,
): TaxLineOut {
  const { taxable } = fig
  // the display rate only matters when nothing is taxable (any rate gives 0 tax)
  const solved = solvedRate(
    { taxable, amount: q.amount, displayRatePct: taxable.isZero() ? dec(q.rate).times(100).toNumber() : 0 },
    fig.taxableKey,
  )
  if (!solved.exact) {
    deps.warn(`sales-tax: line tax ${q.amount} cannot be matched to the cent by a stored rate (taxable ${taxable.toString()})`)
  }
  return lineOf(q, quote, solved.rate, deps.providerId)
}

/** A tax line but its id. */
export function lineOf(q: QuoteLine, quote: Quote, rate: number, providerId: string): TaxLineOut {
  const exemptLine = !!quote.exemptionId && q.amount === 0
  const data: Record<string, unknown> = {
    amount: q.amount,
    service_rate: q.rate,
    tic: q.tic,
    cart_hash: quote.hash,
    exemption_id: quote.exemptionId,
  }
  // where the line shipped from, as quoted: filing files one service order per origin
  if (q.origin) {
    data.origin_location_id = q.origin.locationId
    data.origin = q.origin.address
  }
  // why the line is exempt: the certificate and the verified identity it was applied for
  if (quote.exemptionId) {
    data.exemption_basis = quote.exemptionBasis ?? null
    data.exempt_customer_id = quote.exemptCustomerId ?? null
  }
  return {
    code: exemptLine ? TAX_LINE_CODE_EXEMPT : TAX_LINE_CODE,
    name: exemptLine ? TAX_LINE_NAME_EXEMPT : TAX_LINE_NAME,
    provider_id: providerId,
    data,
    rate,
  }
}
