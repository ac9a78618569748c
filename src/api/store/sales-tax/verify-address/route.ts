import type { MedusaResponse, MedusaStoreRequest } from "@medusajs/framework/http"
import { verifyAddress } from "../../../../verify-address/verify"

/**
 * POST /store/sales-tax/verify-address { address_1, address_2?, city, province, postal_code,
 * country_code?, cart_id? }: 200 { valid: true, address, changed, changes[] }; 422 { valid: false,
 * errors } (unknown ZIP, ZIP/state mismatch); 400 malformed or non-US; 429 with Retry-After past
 * `verifyAddressRateLimit` a minute (default 20); 503 when the service is unavailable.
 */
export async function POST(req: MedusaStoreRequest, res: MedusaResponse): Promise<void> {
  await verifyAddress(req, res)
}
