/**
 * A US order is never placed untaxed because its destination cannot be read, nor in a currency the plugin does not
 * quote: refused at cart completion and at a draft order's conversion, the destination resolved as the provider
 * resolved it (cached per address). Only for what the provider quotes.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { getCheckoutClient } from "../../service/client-factory"
import { SALES_TAX_PROVIDER_IDENTIFIER } from "../../constants"
import { graph } from "../../query"
import {
  ADDRESS_UNRESOLVED_CODE,
  ADDRESS_UNRESOLVED_MESSAGE,
  CURRENCY_UNSUPPORTED_CODE,
  currencyUnsupportedMessage,
} from "../../service/address/us-address"
import { getPluginOptions } from "../../options"
import { MEDUSA_UNSUPPORTED_CODE, installedMedusaVersion, medusaBelowMinimum, unsupportedMedusaMessage } from "../../medusa/medusa-range"
import { quoteDestination, type QuoteDestination, type VerifyDeps } from "../../service/address/destination"

const text = z.string().nullish()
/** A shipping address as the refusal reads it (the address step parses its body's address with it). */
export const OrderAddress = z.object({
  country_code: text,
  province: text,
  postal_code: text,
  address_1: text,
  address_2: text,
  city: text,
})

/** What an order-to-be (a cart, a draft order) holds that the refusal reads. */
export interface OrderToBe {
  currency_code?: string | null
  region?: { automatic_taxes?: boolean | null } | null
  shipping_address?: z.infer<typeof OrderAddress> | null
}

export const isUs = (country: string | null | undefined): boolean => (country ?? "").trim().toLowerCase() === "us"

/** The error for a destination that cannot be quoted, or null when it can (or is not the plugin's to quote). */
export function refusalOf(d: QuoteDestination, currency: string | null | undefined): MedusaError | null {
  if (d.address) return null
  if (d.reason === "currency") {
    return new MedusaError(MedusaError.Types.INVALID_DATA, currencyUnsupportedMessage(currency ?? ""), CURRENCY_UNSUPPORTED_CODE)
  }
  if (d.reason === "unresolved" || d.reason === "unavailable") {
    return new MedusaError(MedusaError.Types.INVALID_DATA, ADDRESS_UNRESOLVED_MESSAGE, ADDRESS_UNRESOLVED_CODE)
  }
  return null
}

/** Where the refusal is asked: where an order is made, or at the address step, which lets a verify-address outage through. */
export type RefusalAt = "order" | "address-step"

/** The refusal of a US order on a Medusa older than the plugin supports (400, `sales_tax_medusa_unsupported`), or null. Pure. */
export function belowMinimumRefusal(below: boolean, version: string): MedusaError | null {
  return below ? new MedusaError(MedusaError.Types.NOT_ALLOWED, unsupportedMedusaMessage(version), MEDUSA_UNSUPPORTED_CODE) : null
}

/** The refusal for an order-to-be, resolving its destination as the provider does (pure but for verify-address). */
export async function destinationRefusal(o: OrderToBe, deps: VerifyDeps, at: RefusalAt = "order"): Promise<MedusaError | null> {
  if (o.region?.automatic_taxes === false) return null
  const a = o.shipping_address
  if (!a || !isUs(a.country_code)) return null
  const d = await quoteDestination({ ...a, province_code: a.province }, o.currency_code ?? "", deps)
  if (at === "address-step" && !d.address && d.reason === "unavailable") return null
  return refusalOf(d, o.currency_code)
}

/** Whether the US tax region computes tax with this plugin's provider (else nothing here is the plugin's to refuse). */
export async function usTaxedBySalesTax(container: MedusaContainer): Promise<boolean> {
  try {
    const regions = await graph<{ provider_id?: string | null; parent_id?: string | null }>(container, {
      entity: "tax_region",
      fields: ["id", "provider_id", "parent_id"],
      filters: { country_code: "us" },
    })
    const top = regions.find((r) => !r.parent_id)
    // no US tax region: Medusa computes no tax for the cart at all; not the plugin's
    return !!top && String(top.provider_id ?? "").startsWith(`tp_${SALES_TAX_PROVIDER_IDENTIFIER}`)
  } catch {
    // the Tax Module is not queryable: assume the plugin's (it is installed for this)
    return true
  }
}

/** Throws the refusal (400) for an order-to-be: at completion (complete-cart-validate.ts), a draft order's conversion, the address step. */
export async function refuseUnquotableDestination(container: MedusaContainer, o: OrderToBe, at: RefusalAt = "order"): Promise<void> {
  if (!isUs(o.shipping_address?.country_code) || o.region?.automatic_taxes === false) return
  if (!(await usTaxedBySalesTax(container))) return
  // a Medusa older than the plugin supports: its tax may lack what the plugin needs (the boot check said so)
  const old = belowMinimumRefusal(medusaBelowMinimum(), installedMedusaVersion())
  if (old) throw old
  const options = getPluginOptions(container)
  const deps: VerifyDeps = { options, client: () => getCheckoutClient(options), deadline: Date.now() + options.timeoutMs }
  const err = await destinationRefusal(o, deps, at)
  if (err) throw err
}

// what the draft order conversion's refusal reads
const DRAFT_ORDER_FIELDS = [
  "id",
  "currency_code",
  "region.automatic_taxes",
  ...Object.keys(OrderAddress.shape).map((f) => `shipping_address.${f}`),
]

/** Refuses converting a US draft order (convertDraftOrderWorkflow has no hook): middleware on its route (src/api/middlewares.ts). */
export async function guardDraftOrderConversion(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
  try {
    const id = req.params.id
    const [order] = id ? await graph<OrderToBe>(req.scope, { entity: "order", fields: DRAFT_ORDER_FIELDS, filters: { id } }) : []
    // an unknown id is Medusa's own 404
    if (order) await refuseUnquotableDestination(req.scope, order)
    next()
  } catch (e) {
    next(e)
  }
}
