// Seeds the browser-test app (run with `medusa exec`): a product type, a category, a product
// without any TIC, a customer and an order whose sales-tax filing failed (the record a
// service outage leaves behind), with the snapshot the filing needs to be retried; and a second
// order, placed 40 days ago (outside the month the reconciliation test reads and the sweep's 35
// days), with the lifecycle states the order widget shows: an order edit applied (voided and filed
// again), a like-for-like replace claim (nothing filed) and a dearer one (what the customer pays),
// and a captured payment refunded $5 without a return (not filed yet: the widget's button files
// it); and a third, placed 40 days ago too, whose line has a tax-inclusive price (filed with its net
// and the tax inside the price). The store itself is seeded like Medusa's official starter
// (seed-starter.ts: a European region, warehouse and shipping only): the settings page's setup
// checklist starts from there (issue 30); the orders above carry no region. Writes the ids as JSON
// to $BROWSER_SEED_OUT.
import { writeFileSync } from "node:fs"
import type { ExecArgs } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import {
  createInventoryLevelsWorkflow,
  createProductCategoriesWorkflow,
  createProductTypesWorkflow,
  createProductsWorkflow,
} from "@medusajs/core-flows"
import { addSalesChannel } from "../../../../../dev-store/seed"
import { seedStarter } from "./seed-starter"

export default async function seed({ container }: ExecArgs) {
  const starter = await seedStarter(container)
  const sweatpants = await seedSweatpants(container, starter)
  const {
    result: [type],
  } = await createProductTypesWorkflow(container).run({ input: { product_types: [{ value: "Apparel" }] } })
  const {
    result: [category],
  } = await createProductCategoriesWorkflow(container).run({
    input: { product_categories: [{ name: "Shirts", is_active: true }] },
  })
  const {
    result: [product],
  } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: "Organic cotton T-shirt",
          status: "published",
          type_id: type!.id,
          category_ids: [category!.id],
          options: [{ title: "Size", values: ["M"] }],
          variants: [{ title: "M", options: { Size: "M" }, prices: [{ amount: 25, currency_code: "usd" }], manage_inventory: false }],
        },
      ],
    },
  })

  const customerModule = container.resolve(Modules.CUSTOMER) as any
  const [customer] = await customerModule.createCustomers([
    { email: "buyer@acme.test", first_name: "Ada", last_name: "Lovelace", company_name: "Acme Wholesale LLC" },
  ])

  const orderModule = container.resolve(Modules.ORDER) as any
  const destination = { line1: "200 N Spring St", city: "Los Angeles", state: "CA", zip: "90012", countryCode: "US" }
  const origin = { line1: "1 Market St", city: "San Francisco", state: "CA", zip: "94105", countryCode: "US" }
  type Address = typeof destination
  /** an order of Ada's, shipped to `to` (its line items as given) */
  const createOrder = async (to: Address, items: Record<string, unknown>[], createdAt?: Date) => {
    const [created] = await orderModule.createOrders([
      {
        currency_code: "usd",
        email: "buyer@acme.test",
        customer_id: customer.id,
        status: "pending",
        ...(createdAt ? { created_at: createdAt } : {}),
        items,
        shipping_address: {
          first_name: "Ada",
          last_name: "Lovelace",
          address_1: to.line1,
          city: to.city,
          province: to.state.toLowerCase(),
          postal_code: to.zip,
          country_code: "us",
        },
      },
    ])
    return created
  }
  /** the filing snapshot of a one-line order (what the filing needs to be retried) */
  const snapshotOf = (orderId: string, placedAt: string, to: Address, line: Record<string, unknown>) => ({
    orderId,
    kind: "order",
    cartId: null,
    customerId: customer.id,
    currencyCode: "USD",
    placedAt,
    origin,
    destination: to,
    lines: [{ index: 0, kind: "item", quantity: 1, tic: 0, fallback: false, ...line }],
  })
  const shirts = {
    title: "Organic cotton T-shirt",
    product_title: "Organic cotton T-shirt",
    quantity: 2,
    unit_price: 25,
    product_id: product!.id,
  }
  const order = await createOrder(destination, [shirts])
  const full = await orderModule.retrieveOrder(order.id, { relations: ["items"] })
  const line = full.items[0]

  const filing = container.resolve("salesTaxFiling") as any
  const placedAt = new Date(Date.now() - 60_000).toISOString()
  await filing.ensureRecord({
    order_id: order.id,
    kind: "order",
    cart_id: null,
    customer_id: customer.id,
    completion_mode: "placed",
    charged_tax: 4.75,
    state: "failed",
    last_error: "createOrder: 503 Service Unavailable - the service was down when the order was placed",
    next_attempt_at: null,
    snapshot: snapshotOf(order.id, placedAt, destination, {
      itemId: line.id,
      price: 25,
      quantity: 2,
      productId: product!.id,
      chargedTax: 4.75,
      chargedRate: 0.095,
    }),
  })
  // the lifecycle order: 2 shirts at $25 with CA's 9.5 % ($4.75 tax), paid $54.75, $5 refunded without a return
  const placed2 = new Date(Date.now() - 40 * 86_400_000)
  const order2 = await createOrder(
    destination,
    [{ ...shirts, tax_lines: [{ code: "SALES_TAX", rate: 9.5, description: "Sales tax" }] }],
    placed2,
  )
  const full2 = await orderModule.retrieveOrder(order2.id, { relations: ["items"] })
  const line2 = full2.items[0]
  const paymentModule = container.resolve(Modules.PAYMENT) as any
  const [collection] = await paymentModule.createPaymentCollections([{ currency_code: "usd", amount: 54.75 }])
  const link = container.resolve(ContainerRegistrationKeys.LINK) as any
  await link.create({ [Modules.ORDER]: { order_id: order2.id }, [Modules.PAYMENT]: { payment_collection_id: collection.id } })
  const session = await paymentModule.createPaymentSession(collection.id, {
    provider_id: "pp_system_default",
    amount: 54.75,
    currency_code: "usd",
    data: {},
  })
  const payment = await paymentModule.authorizePaymentSession(session.id, {})
  await paymentModule.capturePayment({ payment_id: payment.id, amount: 54.75 })
  const refunded = await paymentModule.refundPayment({ payment_id: payment.id, amount: 5 })
  const refundId: string = (refunded.refunds ?? []).map((r: any) => r.id)[0]

  const snapshot2 = snapshotOf(order2.id, placed2.toISOString(), destination, {
    itemId: line2.id,
    price: 25,
    quantity: 2,
    productId: product!.id,
    chargedTax: 4.75,
    chargedRate: 0.095,
  })
  const editId = "ordch_01BROWSEREDIT0000000000000"
  const { record: rec2 } = await filing.ensureRecord({
    order_id: order2.id,
    kind: "order",
    cart_id: null,
    customer_id: customer.id,
    completion_mode: "placed",
    charged_tax: 4.75,
    state: "completed",
    next_attempt_at: null,
    snapshot: snapshot2,
  })
  await filing.patchRecord(rec2.id, {
    filed_tax: 4.75,
    filing_path: "direct",
    filed_at: placed2,
    completed_at: placed2,
    revision: 1,
    edits: [{ id: editId, state: "applied", mode: "refile", at: new Date(placed2.getTime() + 3_600_000).toISOString() }],
  })
  // a refund of one shirt at the service (a return's): the widget's refunds list, in its ~440 px column (issue 30)
  const returnKey = "return_01BROWSERRETURN0000000000"
  const { refund: returned } = await filing.ensureRefund(rec2.id, {
    order_id: order2.id,
    source_type: "return",
    source_id: returnKey,
    idempotency_key: returnKey,
    items: [{ itemId: line2.id, quantity: 1 }],
    returned_at: placed2,
  })
  await filing.patchRefund(returned.id, { state: "refunded", refunded_tax: 2.38, refunded_at: placed2 })
  const claim = (
    id: string,
    state: string,
    c: { replacementTax: number; claimedTax: number; chargedTax: number },
    lastError: string | null,
  ) =>
    filing.ensureRecord({
      order_id: id,
      kind: "claim",
      parent_order_id: order2.id,
      cart_id: null,
      customer_id: customer.id,
      completion_mode: "placed",
      charged_tax: c.chargedTax,
      state,
      last_error: lastError,
      next_attempt_at: null,
      snapshot: { ...snapshot2, orderId: id, kind: "claim", parentOrderId: order2.id, claim: { type: "replace", ...c } },
    })
  const likeClaimId = "claim_01BROWSERLIKE00000000000000"
  const dearerClaimId = "claim_01BROWSERDEARER000000000000"
  await claim(
    likeClaimId,
    "skipped",
    { replacementTax: 2.38, claimedTax: 2.38, chargedTax: 0 },
    "not filed: the replacement costs the customer no tax (replacement 2.38, claimed items 2.38)",
  )
  const { record: dearer } = await claim(dearerClaimId, "completed", { replacementTax: 11.4, claimedTax: 2.38, chargedTax: 9.02 }, null)
  await filing.patchRecord(dearer.id, { filed_tax: 9.02, filing_path: "direct", filed_at: placed2, completed_at: placed2 })

  // the tax-inclusive order (issue 17): one "Wool sweater" at $112 tax included (a region price with
  // the tax-inclusive price preference) to Albany, NY, placed 40 days ago like the lifecycle order;
  // the net inside it, $107.15, is under NY's $110 clothing threshold, so only the local 4.53 % applies:
  // $4.85. The tax line's rate is the one the provider back-solves (docs/provider.md, tax-inclusive):
  // Medusa's inclusive arithmetic gives back subtotal $107.15, tax $4.85, total $112. Filed with the
  // net (shown price − tax charged, `inclusiveNet`) and the tax charged.
  const albany = { line1: "45 Eagle St", city: "Albany", state: "NY", zip: "12207", countryCode: "US" }
  const order3 = await createOrder(
    albany,
    [
      {
        title: "Wool sweater",
        product_title: "Wool sweater",
        quantity: 1,
        unit_price: 112,
        is_tax_inclusive: true,
        tax_lines: [{ code: "SALES_TAX", rate: 4.5264, description: "Sales tax" }],
      },
    ],
    placed2,
  )
  const full3 = await orderModule.retrieveOrder(order3.id, { relations: ["items"] })
  const { record: rec3 } = await filing.ensureRecord({
    order_id: order3.id,
    kind: "order",
    cart_id: null,
    customer_id: customer.id,
    completion_mode: "placed",
    charged_tax: 4.85,
    state: "completed",
    next_attempt_at: null,
    snapshot: snapshotOf(order3.id, placed2.toISOString(), albany, {
      itemId: full3.items[0].id,
      price: 107.15,
      productId: null,
      chargedTax: 4.85,
      chargedRate: 0.0453,
    }),
  })
  await filing.patchRecord(rec3.id, { filed_tax: 4.85, filing_path: "direct", filed_at: placed2, completed_at: placed2 })

  // a US order placed with no tax (issue 26: "texas" typed, no tax line; as an import or an admin
  // creates one), 40 days ago too: its filing needs attention, the widget's fix re-quotes and files it
  const austin = { line1: "100 Congress Ave", city: "Austin", state: "Texas", zip: "78701", countryCode: "US" }
  const order4 = await createOrder(austin, [{ ...shirts, quantity: 1 }], placed2)
  const full4 = await orderModule.retrieveOrder(order4.id, { relations: ["items"] })
  await filing.ensureRecord({
    order_id: order4.id,
    kind: "order",
    cart_id: null,
    customer_id: customer.id,
    completion_mode: "placed",
    charged_tax: 0,
    state: "needs_attention",
    last_error: 'US shipping address (TX 78701, state typed "texas") but no tax was charged at checkout',
    next_attempt_at: null,
    snapshot: {
      ...snapshotOf(
        order4.id,
        placed2.toISOString(),
        { ...austin, state: "TX" },
        {
          itemId: full4.items[0].id,
          price: 25,
          productId: product!.id,
          chargedTax: 0,
          chargedRate: 0,
        },
      ),
      destinationSource: "order_address",
    },
  })

  const out = {
    productId: product!.id,
    productTypeId: type!.id,
    categoryId: category!.id,
    customerId: customer.id,
    orderId: order.id,
    lifecycle: { orderId: order2.id, editId, likeClaimId, dearerClaimId, refundId },
    inclusive: { orderId: order3.id },
    attention: { orderId: order4.id, returnKey },
    starter,
    sweatpants,
  }
  // the sales channel of the second connection (medusa-config.js: SALES_TAX_CONNECTIONS_JSON)
  await addSalesChannel(container, { id: "sc_browser_wholesale", name: "Wholesale" })
  if (process.env.BROWSER_SEED_OUT) writeFileSync(process.env.BROWSER_SEED_OUT, JSON.stringify(out))

  console.log(`BROWSER_SEED ${JSON.stringify(out)}`)
}

/**
 * The starter's "Medusa Sweatpants" (medusa-starter-default's seed: category "Pants", its
 * description, $15), published to the default channel and stocked at the European warehouse like
 * the starter's T-shirt; no TIC anywhere (the unclassified list's "accept all" classifies it).
 */
async function seedSweatpants(container: ExecArgs["container"], starter: { salesChannelId: string; stockLocationId: string }) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const {
    result: [pants],
  } = await createProductCategoriesWorkflow(container).run({ input: { product_categories: [{ name: "Pants", is_active: true }] } })
  const [profile] = (await query.graph({ entity: "shipping_profile", fields: ["id"] })).data
  const {
    result: [product],
  } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: "Medusa Sweatpants",
          handle: "sweatpants",
          description:
            "Reimagine the feeling of classic sweatpants. With our cotton sweatpants, everyday essential no longer means compromise.",
          status: "published",
          category_ids: [pants!.id],
          shipping_profile_id: profile.id,
          options: [{ title: "Size", values: ["M"] }],
          variants: [
            {
              title: "M",
              sku: "SWEATPANTS-M",
              options: { Size: "M" },
              prices: [
                { amount: 10, currency_code: "eur" },
                { amount: 15, currency_code: "usd" },
              ],
            },
          ],
          sales_channels: [{ id: starter.salesChannelId }],
        },
      ],
    },
  })
  const {
    data: [variant],
  } = await query.graph({
    entity: "product_variant",
    fields: ["id", "inventory_items.inventory_item_id"],
    filters: { product_id: product!.id },
  })
  await createInventoryLevelsWorkflow(container).run({
    input: {
      inventory_levels: (variant.inventory_items ?? []).map((i: { inventory_item_id: string }) => ({
        location_id: starter.stockLocationId,
        stocked_quantity: 1_000_000,
        inventory_item_id: i.inventory_item_id,
      })),
    },
  })
  return { productId: product!.id, variantId: variant.id as string }
}
