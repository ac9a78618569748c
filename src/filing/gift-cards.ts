/** Gift cards are not goods (taxed at redemption): Medusa leaves them out of the tax context, and filing files them under TIC
 * 10005 ("Gift card", 0 everywhere) so the service's record matches what the shopper paid and their returns route as any line. */
export const GIFT_CARD_TIC = 10005

/** Pure: an item's filed TIC: a gift card's always (never quoted: the default TIC would file a taxable sale at $0); else the TIC
 * charged, else its product's as resolved now, else the default. */
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
