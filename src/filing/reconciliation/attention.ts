/** Pure: the US orders listed apart: without tax, or not in USD. */
import { money, sumCents } from "./amounts"
import type { AttentionKind, OrderFacts } from "./types"

export const ATTENTION_TEXT: Record<AttentionKind, string> = {
  us_without_tax: "US order without tax: no tax was charged at checkout",
  currency_not_usd: "US order in a currency other than USD: the plugin files USD only",
}

/** Pure: whether (and why) an order is listed apart. */
export function attentionOf(o: OrderFacts): AttentionKind | null {
  if (!o.usAddress || o.canceled) return null
  if ((o.currencyCode ?? "usd").toLowerCase() !== "usd") return "currency_not_usd"
  return o.taxed === false ? "us_without_tax" : null
}

/** Pure: the rows listed apart, by kind, in the rows' order. */
export function attentionLines<R extends { attention: AttentionKind | null; currencyCode: string; salesCents: number }>(rows: R[]) {
  const untaxed = rows.filter((r) => r.attention === "us_without_tax")
  const foreign = rows.filter((r) => r.attention === "currency_not_usd")
  const byCurrency = new Map<string, { currency: string; orders: number; salesCents: number }>()
  for (const r of foreign) {
    const c = byCurrency.get(r.currencyCode) ?? { currency: r.currencyCode, orders: 0, salesCents: 0 }
    c.orders++
    c.salesCents += r.salesCents
    byCurrency.set(r.currencyCode, c)
  }
  return {
    usWithoutTax: { orders: untaxed.length, salesCents: sumCents(untaxed.map((r) => r.salesCents)), rows: untaxed },
    nonUsd: {
      orders: foreign.length,
      byCurrency: [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
      rows: foreign,
    },
  }
}

/** The separate lines' text: "US orders without tax: 2, sales $240.00"; "US orders not in USD: 1 (EUR 100.00)". */
export function attentionSummary(r: ReturnType<typeof attentionLines>): { usWithoutTax: string; nonUsd: string } {
  const per = r.nonUsd.byCurrency.map((c) => `${c.currency} ${money(c.salesCents)}`).join(", ")
  return {
    usWithoutTax: `US orders without tax: ${r.usWithoutTax.orders}, sales $${money(r.usWithoutTax.salesCents)}`,
    nonUsd: `US orders not in USD: ${r.nonUsd.orders}${per ? ` (sales ${per})` : ""}`,
  }
}
