import { verifyAddress } from "../../../../verify-address/verify"

/** POST { address_1, address_2?, city, province, postal_code, country_code?, cart_id? }: the address as the service spells it. */
export const POST = verifyAddress
