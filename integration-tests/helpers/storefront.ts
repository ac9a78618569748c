/**
 * Storefront steps through the store API, as a shopper's browser would make them (the `api`
 * given by medusaIntegrationTestRunner is an axios instance on the booted app).
 */
import BigNumber from "bignumber.js"
import type { SeededStore } from "./seed"

type Api = {
  get(url: string, cfg?: any): Promise<{ status: number; data: any }>
  post(url: string, body?: any, cfg?: any): Promise<{ status: number; data: any }>
  delete(url: string, cfg?: any): Promise<{ status: number; data: any }>
}

export interface ShopperAddress {
  first_name?: string
  last_name?: string
  address_1: string
  city: string
  province: string
  postal_code: string
  country_code: string
}

/** Addresses whose tax facts the tests rely on (see the sandbox engine's data). */
export const ADDRESSES = {
  /** California: shipping not taxed */
  sanFrancisco: {
    first_name: "Ada",
    last_name: "L",
    address_1: "1 Market St",
    city: "San Francisco",
    province: "CA",
    postal_code: "94105",
    country_code: "us",
  },
  /** Kentucky: shipping taxed */
  louisville: {
    first_name: "Ada",
    last_name: "L",
    address_1: "500 W Jefferson St",
    city: "Louisville",
    province: "KY",
    postal_code: "40202",
    country_code: "us",
  },
  /** Pennsylvania: clothing exempt */
  philadelphia: {
    first_name: "Ada",
    last_name: "L",
    address_1: "1500 Market St",
    city: "Philadelphia",
    province: "PA",
    postal_code: "19102",
    country_code: "us",
  },
  /** Minnesota (Minneapolis 9.025 %) */
  minneapolis: {
    first_name: "Ada",
    last_name: "L",
    address_1: "350 S 5th St",
    city: "Minneapolis",
    province: "MN",
    postal_code: "55415",
    country_code: "us",
  },
  /** Not the US */
  toronto: {
    first_name: "Ada",
    last_name: "L",
    address_1: "100 Queen St W",
    city: "Toronto",
    province: "ON",
    postal_code: "M5H 2N2",
    country_code: "ca",
  },
} satisfies Record<string, ShopperAddress>

export const CART_FIELDS =
  "id,currency_code,customer_id,email,tax_total,item_tax_total,shipping_tax_total,total,subtotal," +
  "*items,*items.tax_lines,*items.adjustments,*shipping_methods,*shipping_methods.tax_lines,*shipping_address"

export function storeHeaders(store: Pick<SeededStore, "publishableKey">, token?: string) {
  return { headers: { "x-publishable-api-key": store.publishableKey, ...(token ? { authorization: `Bearer ${token}` } : {}) } }
}

/** Registers and logs in a customer; returns its id and a bearer token for store calls. */
export async function createShopper(
  api: Api,
  store: SeededStore,
  email: string,
  password = "secret-pass-123",
): Promise<{ customerId: string; token: string }> {
  const reg = await api.post("/auth/customer/emailpass/register", { email, password })
  const created = await api.post(
    "/store/customers",
    { email, first_name: "Test", last_name: "Shopper" },
    storeHeaders(store, reg.data.token),
  )
  const login = await api.post("/auth/customer/emailpass", { email, password })
  return { customerId: created.data.customer.id, token: login.data.token }
}

export class Checkout {
  cartId = ""
  constructor(
    private api: Api,
    private store: SeededStore,
    private token?: string,
  ) {}

  private get cfg() {
    return storeHeaders(this.store, this.token)
  }

  async create(body: Record<string, unknown> = {}): Promise<any> {
    const r = await this.api.post(`/store/carts?fields=${CART_FIELDS}`, { region_id: this.store.regionId, ...body }, this.cfg)
    this.cartId = r.data.cart.id
    return r.data.cart
  }
  async addItem(variantId: string, quantity = 1): Promise<any> {
    return (
      await this.api.post(`/store/carts/${this.cartId}/line-items?fields=${CART_FIELDS}`, { variant_id: variantId, quantity }, this.cfg)
    ).data.cart
  }
  async setQuantity(lineId: string, quantity: number): Promise<any> {
    return (await this.api.post(`/store/carts/${this.cartId}/line-items/${lineId}?fields=${CART_FIELDS}`, { quantity }, this.cfg)).data.cart
  }
  async setAddress(address: ShopperAddress, email = "shopper@example.com"): Promise<any> {
    return (
      await this.api.post(
        `/store/carts/${this.cartId}?fields=${CART_FIELDS}`,
        { email, shipping_address: address, billing_address: address },
        this.cfg,
      )
    ).data.cart
  }
  async addShipping(optionId = this.store.shippingOptionId): Promise<any> {
    return (await this.api.post(`/store/carts/${this.cartId}/shipping-methods?fields=${CART_FIELDS}`, { option_id: optionId }, this.cfg))
      .data.cart
  }
  async get(): Promise<any> {
    return (await this.api.get(`/store/carts/${this.cartId}?fields=${CART_FIELDS}`, this.cfg)).data.cart
  }
  /** POST /store/carts/:id/taxes (Medusa's "calculate taxes" route). */
  async calculateTaxes(): Promise<any> {
    return (await this.api.post(`/store/carts/${this.cartId}/taxes?fields=${CART_FIELDS}`, {}, this.cfg)).data.cart
  }
  /** Payment with the system provider, then complete: returns the order. */
  async complete(): Promise<any> {
    const pc = await this.api.post(`/store/payment-collections`, { cart_id: this.cartId }, this.cfg)
    await this.api.post(
      `/store/payment-collections/${pc.data.payment_collection.id}/payment-sessions`,
      { provider_id: "pp_system_default" },
      this.cfg,
    )
    const r = await this.api.post(`/store/carts/${this.cartId}/complete`, {}, this.cfg)
    if (r.data.type !== "order") throw new Error(`cart not completed: ${JSON.stringify(r.data).slice(0, 500)}`)
    return r.data.order
  }
}

/** Medusa's per-line tax total as a number of cents (Medusa's totals are unrounded). */
export function cents(v: unknown): number {
  const raw = typeof v === "number" || typeof v === "string" ? v : ((v as any)?.value ?? (v as any)?.numeric ?? v)
  return new BigNumber(String(raw)).times(100).decimalPlaces(0, BigNumber.ROUND_HALF_UP).toNumber()
}
