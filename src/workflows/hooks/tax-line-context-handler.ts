/**
 * Public path of the plugin's tax-line context handler (`medusa-sales-tax/workflows/hooks/tax-line-context-handler`),
 * kept for host apps; the handler lives in the checkout wing (src/checkout/hooks/tax-line-context-handler.ts).
 * Importing this file registers nothing.
 */
export * from "../../checkout/hooks/tax-line-context-handler"
export * from "../../medusa/taxed-entity"
