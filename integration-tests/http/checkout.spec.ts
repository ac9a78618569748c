import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import BigNumber from "bignumber.js"
import { ADDRESSES, Checkout, cents, createShopper, seedStore, useSalesTaxSandbox, type SeededStore } from "../helpers"
import { TAX_LINE_CODE, TAX_LINE_CODE_EXEMPT, TAX_LINE_CODE_FALLBACK } from "../../src/providers/sales-tax/constants"

jest.setTimeout(120_000)

const st = useSalesTaxSandbox({ failurePolicy: "fallback", timeoutMs: 1500, circuitBreaker: { failures: 3, halfOpenAfterMs: 60_000 } })

/** The sandbox's own answer for the cart (what it stored for cartId = Medusa cart id). */
async function serviceCart(cartId: string) {
  return st.sandbox.client.getCart(cartId)
}

/** Asserts each Medusa line's tax equals, to the cent, the sandbox's amount for that line, and the rate is consistent. */
async function expectLinesMatchService(cart: any) {
  const svc = await serviceCart(cart.id)
  const byId = new Map(svc.lineItems.map((l) => [l.itemId, l]))
  let checked = 0
  for (const item of cart.items) {
    const s = byId.get(item.id)
    expect(s).toBeDefined()
    expect(cents(item.tax_total)).toBe(cents(s!.tax.amount))
    const taxable = new BigNumber(item.unit_price).times(item.quantity)
    if (s!.tax.amount > 0) {
      expect(item.tax_lines).toHaveLength(1)
      expect(item.tax_lines[0].code).toBe(TAX_LINE_CODE)
      // the back-solved rate is the service's rate within what one cent allows on this line
      const diff = Math.abs(item.tax_lines[0].rate / 100 - s!.tax.rate)
      expect(diff).toBeLessThanOrEqual(new BigNumber(0.005).div(taxable).plus(0.00005).toNumber())
    }
    checked++
  }
  for (const sm of cart.shipping_methods ?? []) {
    const s = byId.get(`shipping:${sm.id}`)
    expect(s).toBeDefined()
    expect(s!.tic).toBe(11010)
    expect(cents(sm.tax_total)).toBe(cents(s!.tax.amount))
    checked++
  }
  expect(checked).toBe(svc.lineItems.length)
  return svc
}

medusaIntegrationTestRunner({
  env: st.env,
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    beforeEach(async () => {
      store = await seedStore(getContainer())
      await st.sandbox.reset()
    })

    it("a full store-API checkout charges, per line, exactly the sandbox's tax (items and shipping in one service cart)", async () => {
      const co = new Checkout(api, store)
      await co.create()
      await co.addItem(store.products.general.variantId, 3)
      await co.addItem(store.products.coffee.variantId, 2)
      let cart = await co.setAddress(ADDRESSES.minneapolis)
      cart = await co.addShipping()
      const svc = await expectLinesMatchService(cart)
      // one service cart with every line: items + shipping
      expect(svc.cartId).toBe(cart.id)
      expect(svc.lineItems).toHaveLength(3)
      const general = cart.items.find((i: any) => i.variant_id === store.products.general.variantId)
      expect(cents(general.tax_total)).toBeGreaterThan(0)
      // TIC per line: default for the lamp, category (inherited from the parent) for the coffee
      const tics = Object.fromEntries(svc.lineItems.map((l) => [l.itemId, l.tic]))
      expect(tics[general.id]).toBe(0)
      const coffee = cart.items.find((i: any) => i.variant_id === store.products.coffee.variantId)
      expect(tics[coffee.id]).toBe(40030)
      // the cart's tax total is the sum of the service's amounts
      const svcTotal = svc.lineItems.reduce((a, l) => a.plus(l.tax.amount), new BigNumber(0))
      expect(cents(cart.tax_total)).toBe(cents(svcTotal.toNumber()))

      const order = await co.complete()
      const { data } = await api.get(`/store/orders/${order.id}?fields=*items,*items.tax_lines,tax_total,*shipping_methods`, { headers: { "x-publishable-api-key": store.publishableKey } }).catch(() => ({ data: { order } }))
      expect(cents(data.order.tax_total)).toBe(cents(svcTotal.toNumber()))
    })
  },
})
