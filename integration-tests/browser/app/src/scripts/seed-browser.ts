// Seeds the browser-test app (run with `medusa exec`): a product type, a category, a product
// without any TIC, a customer, a region and an order whose sales-tax filing failed (the record a
// service outage leaves behind), with the snapshot the filing needs to be retried. Writes the ids
// as JSON to $BROWSER_SEED_OUT.
import { writeFileSync } from "node:fs"
import type { ExecArgs } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createProductCategoriesWorkflow, createProductTypesWorkflow, createProductsWorkflow } from "@medusajs/core-flows"

export default async function seed({ container }: ExecArgs) {
  const { result: [type] } = await createProductTypesWorkflow(container).run({ input: { product_types: [{ value: "Apparel" }] } })
  const { result: [category] } = await createProductCategoriesWorkflow(container).run({
    input: { product_categories: [{ name: "Shirts", is_active: true }] },
  })
  const { result: [product] } = await createProductsWorkflow(container).run({
    input: {
      products: [{
        title: "Organic cotton T-shirt",
        status: "published",
        type_id: type!.id,
        category_ids: [category!.id],
        options: [{ title: "Size", values: ["M"] }],
        variants: [{ title: "M", options: { Size: "M" }, prices: [{ amount: 25, currency_code: "usd" }], manage_inventory: false }],
      }],
    },
  })

  const customerModule = container.resolve(Modules.CUSTOMER) as any
  const [customer] = await customerModule.createCustomers([
    { email: "buyer@acme.test", first_name: "Ada", last_name: "Lovelace", company_name: "Acme Wholesale LLC" },
  ])

  const regionModule = container.resolve(Modules.REGION) as any
  const [region] = await regionModule.createRegions([{ name: "United States", currency_code: "usd", countries: ["us"] }])

  const orderModule = container.resolve(Modules.ORDER) as any
  const destination = { line1: "200 N Spring St", city: "Los Angeles", state: "CA", zip: "90012", countryCode: "US" }
  const [order] = await orderModule.createOrders([{
    currency_code: "usd",
    email: "buyer@acme.test",
    customer_id: customer.id,
    region_id: region.id,
    status: "pending",
    items: [{ title: "Organic cotton T-shirt", product_title: "Organic cotton T-shirt", quantity: 2, unit_price: 25, product_id: product!.id }],
    shipping_address: { first_name: "Ada", last_name: "Lovelace", address_1: destination.line1, city: destination.city, province: "ca", postal_code: destination.zip, country_code: "us" },
  }])
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
    snapshot: {
      orderId: order.id,
      kind: "order",
      cartId: null,
      customerId: customer.id,
      currencyCode: "USD",
      placedAt,
      origin: { line1: "1 Market St", city: "San Francisco", state: "CA", zip: "94105", countryCode: "US" },
      destination,
      lines: [{ index: 0, itemId: line.id, kind: "item", price: 25, quantity: 2, tic: 0, productId: product!.id, chargedTax: 4.75, chargedRate: 0.095, fallback: false }],
    },
  })
  const out = { productId: product!.id, productTypeId: type!.id, categoryId: category!.id, customerId: customer.id, orderId: order.id }
  if (process.env.BROWSER_SEED_OUT) writeFileSync(process.env.BROWSER_SEED_OUT, JSON.stringify(out))
  // eslint-disable-next-line no-console
  console.log(`BROWSER_SEED ${JSON.stringify(out)}`)
}
