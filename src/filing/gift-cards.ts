/**
 * Gift cards in filing: a gift card sale is not a sale of goods (taxed at redemption). Medusa leaves
 * `is_giftcard` lines out of the tax context, so they carry no tax; filing files them as lines
 * under TIC 10005 ("Gift card", 0 everywhere) so the service's record matches what the shopper paid
 * and their returns need no special routing.
 */

/** TIC 10005, "Gift card". */
export const GIFT_CARD_TIC = 10005

/**
 * Pure: the TIC an order item is filed under. A gift card line is always GIFT_CARD_TIC (never
 * quoted, the default TIC would file it as a taxable sale with $0 tax); otherwise the TIC it was
 * charged under, else its product's as resolved now, else the default.
 */
export function filedItemTic(
  item: { is_giftcard?: boolean | null; product_id?: string | null },
  chargedTic: number | null,
  productTics: ReadonlyMap<string, number>,
  defaultTic: number,
): number {
  if (item.is_giftcard) return GIFT_CARD_TIC
  if (chargedTic !== null) return chargedTic
  return (item.product_id ? productTics.get(item.product_id) : undefined) ?? defaultTic
}
