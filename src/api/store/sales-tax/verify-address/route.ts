import { verifyAddress } from "../../../../verify-address/verify"

/**
 * POST { address_1, address_2?, city, province, postal_code, country_code?, cart_id? }: 200 the
 * address as the service spells it; 422 cannot be verified; 400 malformed or non-US; 429 past the
 * rate limit (Retry-After); 503 service unavailable.
 */
export const POST = verifyAddress
