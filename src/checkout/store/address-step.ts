/**
 * The address step refuses what completion would (destination-guard.ts): `POST /store/carts/:id` giving a complete
 * US address (a ZIP typed) that cannot be resolved, or in an unquoted currency, answers 400 before the route runs,
 * so the storefront's form shows it. A half-typed address and a verify-address outage pass: completion is the backstop.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { graph } from "../../query"
import { isUs, OrderAddress, refuseUnquotableDestination, type OrderToBe } from "../hooks/destination-guard"
import { storeCartSpan } from "./cart-refresh"

const AddressStepBody = z.object({
  region_id: z.string().optional(),
  shipping_address: OrderAddress.extend({ id: z.string().optional() }).optional(),
})
type AddressStepBody = z.infer<typeof AddressStepBody>

export interface AddressStepRegion {
  id: string
  currency_code?: string | null
  automatic_taxes?: boolean | null
  countries?: { iso_2?: string | null }[] | null
}

export interface AddressStepCart {
  id: string
  currency_code?: string | null
  region?: AddressStepRegion | null
  shipping_address?: (NonNullable<OrderToBe["shipping_address"]> & { id?: string | null }) | null
}

const REGION_FIELDS = ["id", "currency_code", "automatic_taxes", "countries.iso_2"] as const
const CART_FIELDS = [
  "id",
  "currency_code",
  ...REGION_FIELDS.map((f) => `region.${f}`),
  ...["id", ...Object.keys(OrderAddress.shape)].map((f) => `shipping_address.${f}`),
]

/** Pure: the request's body as the address step reads it, or null when it gives no shipping address (Medusa validates the rest). */
export function addressStepBody(body: unknown): AddressStepBody | null {
  const parsed = AddressStepBody.safeParse(body ?? {})
  return parsed.success && parsed.data.shipping_address ? parsed.data : null
}

/** Pure: whether the body's address may be a US one (a US country, or an update by id of the cart's address). */
export function mayGiveUsAddress(body: AddressStepBody): boolean {
  const a = body.shipping_address
  return !!a && (isUs(a.country_code) || (a.id !== undefined && a.country_code === undefined))
}

/** Pure: the cart as the route would leave it, for the refusal; null without a complete US address, or in a region without the US. */
export function cartAfterAddressStep(cart: AddressStepCart, newRegion: AddressStepRegion | null, body: AddressStepBody): OrderToBe | null {
  const given = body.shipping_address
  if (!given) return null
  const { id, ...fields } = given
  // an update by id of the cart's address changes the fields given; any other address replaces it
  const address = id !== undefined && id === cart.shipping_address?.id ? { ...cart.shipping_address, ...fields } : fields
  if (!isUs(address.country_code) || !(address.postal_code ?? "").trim()) return null
  const region = newRegion ?? cart.region
  if (region?.countries?.length && !region.countries.some((c) => isUs(c.iso_2))) return null
  return {
    currency_code: newRegion ? newRegion.currency_code : cart.currency_code,
    region: { automatic_taxes: region?.automatic_taxes },
    shipping_address: address,
  }
}

export async function refuseUnresolvedAddressStep(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
  try {
    const body = addressStepBody(req.body)
    const cartId = req.params?.id
    if (!body || !cartId || !mayGiveUsAddress(body)) return next()
    await storeCartSpan({ phase: "address-step", cartId }, async () => {
      const [cart] = await graph<AddressStepCart>(req.scope, { entity: "cart", fields: CART_FIELDS, filters: { id: cartId } })
      // an unknown cart or region is Medusa's own 404
      if (!cart) return
      let newRegion: AddressStepRegion | null = null
      if (body.region_id !== undefined && body.region_id !== cart.region?.id) {
        ;[newRegion = null] = await graph<AddressStepRegion>(req.scope, {
          entity: "region",
          fields: REGION_FIELDS,
          filters: { id: body.region_id },
        })
        if (!newRegion) return
      }
      const after = cartAfterAddressStep(cart, newRegion, body)
      if (after) await refuseUnquotableDestination(req.scope, after, "address-step")
    })
    next()
  } catch (e) {
    next(e)
  }
}
