/** Contract: the Cart Module the cart restore writes through (cart-restore.ts), as installed. */
import CartModule from "@medusajs/cart"
import * as cartModels from "@medusajs/cart/dist/models"
import { CartPromotion } from "@medusajs/link-modules/dist/definitions/cart-promotion"
import { Modules } from "@medusajs/framework/utils"
import {
  CART_RESTORE_METHODS,
  cartRestoreDifferences,
  cartRestoreOn,
  restoreCartState,
  setCartRestore,
  type CartState,
  type CartSurface,
} from "./cart-restore"

const installed: CartSurface = {
  service: (CartModule as unknown as { service: { prototype: object } }).service.prototype,
  models: cartModels as unknown as CartSurface["models"],
}

describe("contract: the Cart Module's methods, columns and promotion link the restore uses", () => {
  it("the installed @medusajs/cart has every method and column", () => {
    expect(cartRestoreDifferences(installed)).toEqual([])
  })

  it("the cart ↔ promotion link the restore dismisses and re-creates: cart_id and promotion_id on cart_promotion", () => {
    const link = CartPromotion as unknown as { relationships: { serviceName: string; foreignKey: string }[] }
    expect(link.relationships.map((r) => [r.serviceName, r.foreignKey])).toEqual([
      [Modules.CART, "cart_id"],
      [Modules.PROMOTION, "promotion_id"],
    ])
  })

  it("a method or a column gone is named", () => {
    const { updateAddresses: _gone, ...service } = Object.fromEntries(CART_RESTORE_METHODS.map((m) => [m, () => undefined]))
    const LineItemTaxLine = { schema: { ...cartModels.LineItemTaxLine.schema } as Record<string, unknown> }
    delete LineItemTaxLine.schema.provider_id
    expect(cartRestoreDifferences({ service, models: { ...installed.models, LineItemTaxLine } })).toEqual([
      "the Cart Module lacks updateAddresses",
      "LineItemTaxLine lacks provider_id",
    ])
    expect(cartRestoreDifferences({ service: undefined, models: {} })[0]).toBe("no Cart Module")
  })

  it("turned off, the restore writes nothing and says so", async () => {
    setCartRestore(false)
    try {
      const scope = {
        resolve: () => {
          throw new Error("no write may happen")
        },
      }
      expect(await restoreCartState(scope as never, { id: "cart_1" } as CartState)).toEqual([
        "cart (the restore is turned off: see the start-up error)",
      ])
    } finally {
      setCartRestore(true)
    }
    expect(cartRestoreOn()).toBe(true)
  })
})
