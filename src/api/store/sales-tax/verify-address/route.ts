import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { isSalesTaxError } from "../../../../client"
import { getSalesTaxClient } from "../../../../client-factory"
import { getPluginOptions } from "../../../../options"
import { normalizeState, normalizeZip } from "../../../../providers/sales-tax/build-service-cart"

/**
 * POST /store/sales-tax/verify-address — the storefront's address step.
 * Body (Medusa address names): { address_1, address_2?, city, province, postal_code, country_code? }.
 * 200 { valid: true, address, changed, changes[] }: the address as the postal service spells it
 *     (city, state upper-case, ZIP+4 when known), to offer as a suggested correction.
 * 422 { valid: false, message, errors: [{ field, message, value }] }: unknown ZIP, ZIP/state mismatch.
 * 400 { message, errors } for a malformed body or a non-US address; 503 when the service is unavailable.
 */
export const VerifyAddressBody = z.object({
  address_1: z.string().trim().max(100).default(""),
  address_2: z.string().trim().max(100).nullish(),
  city: z.string().trim().min(1, "city is required").max(100),
  province: z.string().trim().min(1, "province (state) is required"),
  postal_code: z.string().trim().min(1, "postal_code is required"),
  country_code: z.string().trim().toLowerCase().default("us"),
})
export type VerifyAddressBody = z.infer<typeof VerifyAddressBody>

const FIELD: Record<string, string> = { line1: "address_1", line2: "address_2", city: "city", state: "province", zip: "postal_code" }

function fieldOf(location: string): string {
  const last = location.replace(/^body\.?/, "").split(".").pop() ?? ""
  return FIELD[last] ?? (last || "address")
}

export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const parsed = VerifyAddressBody.safeParse(req.body ?? {})
  if (!parsed.success) {
    res.status(400).json({
      type: "invalid_data",
      message: "Invalid address",
      errors: parsed.error.issues.map((i) => ({ field: i.path.join("."), message: i.message, value: (req.body as any)?.[String(i.path[0])] })),
    })
    return
  }
  const b = parsed.data
  if (b.country_code !== "us") {
    res.status(400).json({ type: "invalid_data", message: "Only US addresses can be verified", errors: [{ field: "country_code", message: "must be us", value: b.country_code }] })
    return
  }
  const state = normalizeState(b.province)
  const zip = normalizeZip(b.postal_code)
  const errors = [
    ...(state ? [] : [{ field: "province", message: "must be a two-letter US state code (e.g. CA)", value: b.province }]),
    ...(zip ? [] : [{ field: "postal_code", message: "must be a 5-digit ZIP, optionally with +4 (94105 or 94105-1234)", value: b.postal_code }]),
  ]
  if (errors.length || !state || !zip) {
    res.status(422).json({ valid: false, type: "invalid_data", message: "The address could not be verified", errors })
    return
  }
  const options = getPluginOptions(req.scope)
  const client = getSalesTaxClient(options, { retry: { maxAttempts: 2, baseDelayMs: 50, maxDelayMs: 200, maxElapsedMs: options.timeoutMs } })
  try {
    const out = await client.verifyAddress({ line1: b.address_1, line2: b.address_2 ?? undefined, city: b.city, state, zip })
    const address = {
      address_1: out.line1,
      address_2: out.line2 ?? b.address_2 ?? null,
      city: out.city,
      province: out.state,
      postal_code: out.zip,
      country_code: "us",
    }
    const changes = (["address_1", "city", "province", "postal_code"] as const).filter((k) => {
      const before = k === "province" ? b.province : b[k]
      return String(before ?? "") !== String(address[k] ?? "")
    })
    res.status(200).json({ valid: true, address, changed: changes.length > 0, changes })
  } catch (e) {
    if (isSalesTaxError(e) && e.status !== null && e.status >= 400 && e.status < 500 && e.errors.length && e.status !== 401 && e.status !== 403) {
      res.status(422).json({
        valid: false,
        type: "invalid_data",
        message: "The address could not be verified",
        errors: e.errors.map((x) => ({ field: fieldOf(x.location), message: x.message, value: x.value })),
      })
      return
    }
    res.status(503).json({ type: "unavailable", message: "Address verification is unavailable right now; you can continue with the address as entered." })
  }
}
