// The handler's public path for host apps (it lives in src/checkout/hooks); importing it registers nothing.
export * from "../../checkout/hooks/tax-line-context-handler"
export * from "../../medusa/taxed-entity"
