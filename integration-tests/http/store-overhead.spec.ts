/**
 * A cart the plugin does not tax costs it nothing (issue 29): the SQL statements of a store cart
 * change of a Canadian cart on Medusa's system provider (tp_system) that the plugin's code issues.
 *
 * How they are counted: every statement on Medusa's shared connection (`__pg_connection__`, knex's
 * `query` event), attributed to the plugin's phase it runs in through the plugin's tracing channel
 * (STORE_CART_TRACE: an AsyncLocalStorage bound to its spans, so a statement made anywhere below a
 * phase, Medusa's own workflows run by the plugin included, is that phase's). The plugin's code on
 * a store cart change runs in those spans (rememberCartState, the after-route refresh, the restore,
 * the cart-refresh hook) or does no I/O (the request-actor scope, the outage check while the
 * service is healthy, the promotions validate handler). A US cart's changes show that the count
 * sees the plugin's statements where there are some. `npm run bench:store` compares the whole
 * request with a Medusa app that does not load the plugin at all.
 *
 * And the guarantee the read buys is kept: a Canadian cart moved into the US by the request that
 * discovers an outage is put back as it was (failurePolicy "block").
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { createRegionsWorkflow, createTaxRegionsWorkflow, updateRegionsWorkflow } from "@medusajs/core-flows"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { AsyncLocalStorage } from "node:async_hooks"
import { tracingChannel } from "node:diagnostics_channel"
import { ADDRESSES, Checkout, resetCheckout, seedCheckoutStore, useSalesTaxSandbox, type SeededStore } from "../helpers"
import { BLOCK_ERROR_CODE } from "../../src/constants"
import { STORE_CART_TRACE, type StoreCartSpan } from "../../src/checkout/store/cart-refresh"

// a hang guard only (issue 29): a test ends as soon as its work does, and a loaded machine only makes
// that slower (under two busy loops and four other runs, checkout-block's outage test took over 120 s)
jest.setTimeout(15 * 60_000)

const st = useSalesTaxSandbox({
  failurePolicy: "block",
  timeoutMs: 60_000,
  circuitBreaker: { failures: 3, halfOpenAfterMs: 3_600_000 },
})

/** The statements of one store request, by the plugin's phase they ran in ("" = none of the plugin's). */
interface Counted {
  byPhase: Record<string, number>
  spans: StoreCartSpan[]
}

medusaIntegrationTestRunner({
  env: st.env,
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    let canadaId: string
    const phaseOf = new AsyncLocalStorage<string>()
    let current: Counted | undefined
    const h = () => ({ headers: { "x-publishable-api-key": store.publishableKey } })

    beforeAll(async () => {
      const container = getContainer()
      store = await seedCheckoutStore(container)
      const {
        result: [canada],
      } = await createRegionsWorkflow(container).run({
        input: {
          regions: [
            { name: "Canada", currency_code: "usd", countries: ["ca"], automatic_taxes: true, payment_providers: ["pp_system_default"] },
          ],
        },
      })
      canadaId = canada.id
      await createTaxRegionsWorkflow(container).run({
        input: [{ country_code: "ca", provider_id: "tp_system", default_tax_rate: { rate: 13, code: "CA-DEFAULT", name: "Canada" } }],
      })
      const trace = tracingChannel<unknown, StoreCartSpan>(STORE_CART_TRACE)
      trace.start.bindStore(phaseOf, (ctx) => ctx.phase)
      trace.subscribe({
        start: (ctx) => current?.spans.push(ctx),
        end: () => undefined,
        asyncStart: () => undefined,
        asyncEnd: () => undefined,
        error: () => undefined,
      })
      const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as { on(e: string, f: () => void): void }
      pg.on("query", () => {
        if (!current) return
        const phase = phaseOf.getStore() ?? ""
        current.byPhase[phase] = (current.byPhase[phase] ?? 0) + 1
      })
    })
    beforeEach(() => resetCheckout(getContainer(), st.sandbox))

    /** Runs one store request and counts its statements by phase (the answer awaited: the restore is before it). */
    async function counted(request: () => Promise<unknown>): Promise<Counted & { plugin: number; total: number }> {
      const c: Counted = { byPhase: {}, spans: [] }
      current = c
      try {
        await request()
      } finally {
        current = undefined
      }
      const total = Object.values(c.byPhase).reduce((a, b) => a + b, 0)
      return { ...c, plugin: total - (c.byPhase[""] ?? 0), total }
    }

    async function cartIn(regionId: string, address: (typeof ADDRESSES)[keyof typeof ADDRESSES]) {
      const co = new Checkout(api, { ...store, regionId })
      await co.create()
      await co.setAddress(address)
      await co.addItem(store.products.general.variantId, 1)
      const cart = await co.addItem(store.products.shirt.variantId, 1)
      return { co, lineId: cart.items.find((i: { variant_id: string }) => i.variant_id === store.products.general.variantId).id as string }
    }

    it("a Canadian cart on tp_system: its changes cost no statement of the plugin's", async () => {
      const { co, lineId } = await cartIn(canadaId, ADDRESSES.toronto)
      const changes: [string, () => Promise<unknown>][] = [
        ["quantity", () => co.setQuantity(lineId, 3)],
        ["quantity again", () => co.setQuantity(lineId, 4)],
        ["add a line", () => co.addItem(store.products.coffee.variantId, 1)],
        ["e-mail", () => api.post(`/store/carts/${co.cartId}`, { email: "other@example.com" }, h())],
        ["another Canadian address", () => co.setAddress({ ...ADDRESSES.toronto, address_1: "1 Front St W" })],
        ["delete a line", () => api.delete(`/store/carts/${co.cartId}/line-items/${lineId}`, h())],
      ]
      for (const [what, change] of changes) {
        const c = await counted(change)
        // the plugin issued nothing, its phases ran (what they did is in their spans), and the
        // request itself did (Medusa's own statements are counted)
        expect([what, c.plugin, c.byPhase]).toEqual([what, 0, { "": c.total }])
        expect([what, c.spans.map((s) => `${s.phase}:${s.read ?? s.taxed}`)]).toEqual([what, ["remember:false", "refresh-hook:false"]])
        expect(c.total).toBeGreaterThan(0)
      }
      // the answers are Medusa's own system-provider tax
      const cart = await co.get()
      expect(cart.items.map((i: { tax_lines: { provider_id: string }[] }) => i.tax_lines.map((l) => l.provider_id))).toEqual([
        ["system"],
        ["system"],
      ])
    })

    it("a US cart on the plugin's provider: after a quoted change no read before the route (its restore point is that quote's state); after a tax-line write elsewhere, the read", async () => {
      const { co, lineId } = await cartIn(store.regionId, ADDRESSES.minneapolis)
      const c = await counted(() => co.setQuantity(lineId, 3))
      expect(c.spans.map((s) => `${s.phase}:${s.read ?? s.taxed}`)).toEqual(["remember:false", "refresh-hook:true"])
      expect(c.byPhase.remember).toBeUndefined()
      expect(c.byPhase["refresh-hook"]).toBeGreaterThan(0)
      // POST taxes rewrites the tax lines outside the plugin's refresh: the next change reads the cart
      await co.calculateTaxes()
      const read = await counted(() => co.setQuantity(lineId, 4))
      expect(read.spans.map((s) => `${s.phase}:${s.read ?? s.taxed}`)).toEqual(["remember:true", "refresh-hook:true"])
      expect(read.byPhase.remember).toBeGreaterThan(0)
    })

    it("a Canadian cart moved into the US by the request that discovers an outage is put back as it was", async () => {
      // a region of both countries (Canada's, the US moved into it), so that one address change
      // moves the cart from Canada into the US (Medusa's region change alone gives a US cart no ZIP)
      const regions = updateRegionsWorkflow(getContainer())
      await regions.run({ input: { selector: { id: store.regionId }, update: { countries: [] } } })
      await regions.run({ input: { selector: { id: canadaId }, update: { countries: ["ca", "us"] } } })
      const { co } = await cartIn(canadaId, ADDRESSES.toronto)
      // this process has seen the cart outside the provider's scope (no read before its changes)
      expect((await counted(() => co.addItem(store.products.coffee.variantId, 1))).spans[0]).toMatchObject({ read: false })
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY) as {
        graph(q: unknown): Promise<{ data: { region_id: string; shipping_address: { country_code: string; city: string } }[] }>
      }
      const stored = async () => {
        const {
          data: [c],
        } = await query.graph({
          entity: "cart",
          fields: ["region_id", "shipping_address.country_code", "shipping_address.city", "items.quantity"],
          filters: { id: co.cartId },
        })
        return c
      }
      const before = await stored()
      expect(before).toMatchObject({ region_id: canadaId, shipping_address: { country_code: "ca", city: "Toronto" } })
      await st.sandbox.fault({ operation: "calculateCarts", status: 503 })
      try {
        const c = await counted(() =>
          api
            .post(`/store/carts/${co.cartId}`, { shipping_address: ADDRESSES.minneapolis }, h())
            .then(
              (): { status: number; data?: { code?: string } } => ({ status: 200 }),
              (e: { response: { status: number; data: { code?: string } } }) => e.response,
            )
            .then((r: { status: number; data?: { code?: string } }) => expect([r.status, r.data?.code]).toEqual([400, BLOCK_ERROR_CODE])),
        )
        // the address step's check (a complete US address); read before the route (the body names a US address), then put back
        expect(c.spans.map((s) => s.phase)).toEqual(["address-step", "remember", "restore"])
        expect(c.spans[1]).toMatchObject({ read: true })
      } finally {
        await st.sandbox.clearFaults()
      }
      expect(await stored()).toEqual(before)
    })
  },
})
