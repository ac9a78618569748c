// Identifiers stored on Medusa tax lines and relied on by filing, the admin and host apps: public API.

/** `static identifier` of the tax provider. Medusa stores providers as `tp_<identifier>_<id>`. */
export const SALES_TAX_PROVIDER_IDENTIFIER = "sales-tax"
/** The `id` used in our examples and tests; the provider id is then `tp_sales-tax_sales-tax`. */
export const SALES_TAX_PROVIDER_ID = `tp_${SALES_TAX_PROVIDER_IDENTIFIER}_${SALES_TAX_PROVIDER_IDENTIFIER}`

/** `code` of a tax line whose rate was back-solved from the service's amount (normal case). */
export const TAX_LINE_CODE = "sales-tax"
/** `code` of a tax line computed under failurePolicy "fallback": the order is re-quoted at filing. */
export const TAX_LINE_CODE_FALLBACK = "SALES_TAX_FALLBACK"
/** `code` of a zero line for a customer with an active exemption certificate for the destination state. */
export const TAX_LINE_CODE_EXEMPT = "sales-tax-exempt"

/** `name`/description of the tax lines (shown by Medusa as the tax line description). */
export const TAX_LINE_NAME = "Sales tax"
export const TAX_LINE_NAME_FALLBACK = "Sales tax (estimated)"
export const TAX_LINE_NAME_EXEMPT = "Sales tax (exempt)"

/** Key under `additional_context` where the tax-line context hook puts the cart snapshot. */
export const CONTEXT_KEY = "sales_tax"

/** `itemId` of the shipping line in the service cart: `shipping:<shipping method id>`. */
export const SHIPPING_ITEM_PREFIX = "shipping:"

/** Default TICs. 0 = general tangible goods; 11010 = shipping by common carrier. */
export const DEFAULT_TIC = 0
export const DEFAULT_SHIPPING_TIC = 11010

/** Error code on the MedusaError thrown under failurePolicy "block". */
export const BLOCK_ERROR_CODE = "sales_tax_unavailable"
export const BLOCK_ERROR_MESSAGE = "We could not calculate sales tax for your order right now. Please try again in a moment."
/** Error code when a US cart has tax-inclusive prices (refused, see docs/provider.md). */
export const TAX_INCLUSIVE_ERROR_CODE = "sales_tax_tax_inclusive_unsupported"
/** The plugin's module, as Medusa's container names it (src/modules/sales-tax). */
export const SALES_TAX_MODULE = "salesTax"
