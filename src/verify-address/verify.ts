// The storefront's address step: the address as the postal service spells it, or why it cannot be
// verified. Public, so rate-limited per client, per cart, and in one budget for requests naming no
// cart; the state asked about is the destination rule's, as at checkout.
import type { MedusaResponse, MedusaStoreRequest } from "@medusajs/framework/http"
import { z } from "zod"
import { getCheckoutClient } from "../service/client-factory"
import { optionsForChannel } from "../service/connections"
import { issuesToErrors, type ErrorDetail } from "../../packages/contract/src/index"
import { getPluginOptions, type PluginOptions } from "../options"
import { normalizeUsState, normalizeUsZip, planDestination, zipText } from "../service/address/us-address"
import { askVerdict } from "../service/address/destination"
import { graph } from "../query"
import { excerpt } from "../http/input-guard"
import {
  addressKey,
  ANONYMOUS_KEY,
  clientAddress,
  verifyAddressGuard,
  type Limited,
  type Verdict,
} from "../service/address/verify-address-limits"

const CART_ID = /^cart_[0-9A-Za-z][0-9A-Za-z_]{0,63}$/

export const VerifyAddressBody = z.object({
  address_1: z.string().trim().max(100).default(""),
  address_2: z.string().trim().max(100).nullish(),
  city: z.string().trim().min(1, "city is required").max(100),
  province: z.string().trim().min(1, "province (state) is required").max(50),
  postal_code: z.string().trim().min(1, "postal_code is required").max(20),
  country_code: z.string().trim().toLowerCase().max(2, "country_code must be a two-letter code").default("us"),
  /** The storefront's cart: the rate limit then applies per cart as well. */
  cart_id: z.string().regex(CART_ID, "cart_id must be a cart id (cart_…)").optional(),
})

/** The service's address fields as the storefront names them. */
const FIELD: Record<string, string> = { line1: "address_1", line2: "address_2", city: "city", state: "province", zip: "postal_code" }

function fieldOf(location: string): string {
  const last =
    location
      .replace(/^body\.?/, "")
      .split(".")
      .pop() ?? ""
  return (Object.hasOwn(FIELD, last) ? FIELD[last] : undefined) ?? (last || "address")
}

function located(field: string, message: string, value: unknown) {
  return { field, location: `body.${field}`, message, value: excerpt(value) }
}

const locatedDetail = (x: ErrorDetail) => located(fieldOf(x.location), x.message, x.value)

function tooMany(res: MedusaResponse, l: Exclude<Limited, { ok: true }>, perMinute: number): void {
  res.setHeader("Retry-After", String(l.retryAfterSeconds))
  const who = l.scope === "cart" ? "this cart" : l.scope === "client" ? "this client" : "requests without a cart of this store"
  const message = `Too many address verifications for ${who} (at most ${perMinute} a minute); try again in ${l.retryAfterSeconds} s`
  res.status(429).json({ type: "too_many_requests", code: "sales_tax_rate_limited", message })
}

class Refused extends Error {}

const unverifiable = (res: MedusaResponse, errors: ReturnType<typeof located>[]) =>
  void res.status(422).json({ valid: false, type: "invalid_data", message: "The address could not be verified", errors })

/** The options of the sales channel of the request's key, or of its cart when the key has several. */
function requestOptions(req: MedusaStoreRequest, options: PluginOptions, cart: KnownCart | null): PluginOptions {
  const channels = req.publishable_key_context?.sales_channel_ids ?? []
  const own = cart?.sales_channel_id
  return optionsForChannel(options, own && channels.length > 1 && channels.includes(own) ? own : channels[0])
}

type KnownCart = { id: string; sales_channel_id?: string | null }

/** The cart a request names, when Medusa has it: a made-up `cart_…` id opens no budget of its own. */
async function knownCart(req: MedusaStoreRequest, cartId: string | undefined): Promise<KnownCart | null> {
  if (!cartId) return null
  const [cart] = await graph<KnownCart>(req.scope, { entity: "cart", fields: ["id", "sales_channel_id"], filters: { id: cartId } })
  return cart?.id === cartId ? cart : null
}

export async function verifyAddress(req: MedusaStoreRequest, res: MedusaResponse): Promise<void> {
  const options = getPluginOptions(req.scope)
  const perMinute = options.verifyAddressRateLimit
  const anonymousPerMinute = options.verifyAddressAnonymousRateLimit ?? perMinute
  const guard = verifyAddressGuard(`${options.baseUrl}|${options.connectionId}`, perMinute, anonymousPerMinute)

  // every request counts against the client's budget, well-formed or not; the client is the TCP
  // peer unless the `trustProxy` option names proxy hops (never req.ip: Medusa trusts one hop of
  // X-Forwarded-For whatever is in front of it, so without a proxy anyone picks their own address)
  const client = clientAddress(req.socket?.remoteAddress, req.headers["x-forwarded-for"], options.trustProxy ?? false)
  const byClient = await guard.take("client", client)
  if (!byClient.ok) return tooMany(res, byClient, perMinute)

  const parsed = VerifyAddressBody.safeParse(req.body ?? {})
  if (!parsed.success) {
    const values = issuesToErrors("body", parsed.error, req.body).map((e) => e.value)
    const errors = parsed.error.issues.map((i, k) => located(i.path.join(".") || "body", i.message, values[k]))
    const named = errors.slice(0, 3).map((e) => `${e.field}: ${e.message}`)
    return void res.status(400).json({ type: "invalid_data", message: `Invalid address: ${named.join("; ")}`, errors })
  }
  const b = parsed.data
  // per cart always: a request that names no cart Medusa has (none, or a made-up id: each would be
  // a fresh budget) takes from the one budget all such requests share
  const cart = await knownCart(req, b.cart_id)
  const byCart = cart ? await guard.take("cart", cart.id) : await guard.take("anonymous", ANONYMOUS_KEY)
  if (!byCart.ok) return tooMany(res, byCart, cart ? perMinute : anonymousPerMinute)
  if (b.country_code !== "us") {
    const errors = [located("country_code", "must be us", b.country_code)]
    return void res.status(400).json({ type: "invalid_data", message: "Only US addresses can be verified", errors })
  }
  // the destination rule (us-address.ts: planDestination): the ZIP decides the state asked about, as at checkout
  const plan = planDestination(b.province, b.postal_code)
  const state =
    (plan.kind === "typed" ? plan.destination.state : plan.kind === "verify" ? plan.state : null) ?? normalizeUsState(b.province)
  const z = normalizeUsZip(b.postal_code)
  const zip = z ? zipText(z) : null
  const errors = [
    ...(state ? [] : [located("province", "must be a US state: its two-letter code or its name (e.g. CA or California)", b.province)]),
    ...(zip ? [] : [located("postal_code", "must be a 5-digit ZIP, optionally with +4 (94105 or 94105-1234)", b.postal_code)]),
  ]
  if (errors.length || !state || !zip) return unverifiable(res, errors)
  const request = { line1: b.address_1, line2: b.address_2 ?? undefined, city: b.city, state, zip }
  let verdict: Verdict
  try {
    // the connection is resolved only when the service is asked (a cached verdict needs none); a refusal
    // that names no field is answered, not kept (it is not a verdict about the address)
    const ask = () =>
      askVerdict(getCheckoutClient(requestOptions(req, options, cart)), request, (e) => {
        throw new Refused(e.detail || e.title)
      })
    verdict = (await guard.verdict(addressKey(request), ask)).verdict
  } catch (e) {
    if (e instanceof Refused) return unverifiable(res, [located("address", "the service refused the address", undefined)])
    const message = "Address verification is unavailable right now; you can continue with the address as entered."
    return void res.status(503).json({ type: "unavailable", code: "sales_tax_unavailable", message })
  }
  if (verdict.kind === "invalid") return unverifiable(res, verdict.errors.map(locatedDetail))
  const out = verdict.address
  const address = {
    address_1: out.line1,
    address_2: out.line2 ?? b.address_2 ?? null,
    city: out.city,
    province: out.state,
    postal_code: out.zip,
    country_code: "us",
  }
  const changes = (["address_1", "city", "province", "postal_code"] as const).filter((k) => String(b[k] ?? "") !== String(address[k] ?? ""))
  res.status(200).json({ valid: true, address, changed: changes.length > 0, changes })
}
