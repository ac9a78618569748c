/** The shapes the quote pipeline passes between its stages (provider.ts is their face to Medusa). */
import type { ItemTaxLineDTO, Logger, ShippingTaxLineDTO } from "@medusajs/framework/types"
import type { Address, CartIn } from "../../../packages/contract/src/index"
import type { SalesTaxClient } from "../../service/client"
import type { CircuitBreaker } from "./health"

export type TaxLine = ItemTaxLineDTO | ShippingTaxLineDTO

/** A tax line before its line's id is set. */
export type TaxLineOut = {
  code: string
  name: string
  provider_id: string
  data: Record<string, unknown>
  rate: number
  line_item_id?: string
  shipping_line_id?: string
}

/** A quote as cached: the service's answer, reduced to what the lines need. */
export interface Quote {
  hash: string
  exemptionId: string | null
  /** why the certificate was applied, and for whom */
  exemptionBasis?: string | null
  exemptCustomerId?: string | null
  lines: Record<
    string,
    {
      amount: number
      rate: number
      tic: number | null
      /** Tax-inclusive line: the net quoted (dollars) and shown − net − amount (0, or one cent where no net exists). */
      net?: string
      residual?: string
      /** Where the line ships from: its stock location (null: the `origin` option) and the address quoted. */
      origin?: { locationId: string | null; address: Address }
    }
  >
  /** Service calls the tax-inclusive split took (absent for an all-exclusive cart). */
  inclusiveCalls?: number
}
export type QuoteLine = Quote["lines"][string]

/** One service cart of a quote and the stock location it ships from ("" for the `origin` option). */
export interface ServiceCart {
  cart: CartIn
  key: string
}

/** A connection as a quote uses it: its id, its checkout client, whether it is the default one. */
export interface QuoteConnection {
  connectionId: string
  client: SalesTaxClient
  isDefault: boolean
}

/** One quote's connection, its circuit breaker, and when the quote must be done (epoch ms). */
export interface QuoteRun {
  conn: QuoteConnection
  breaker: CircuitBreaker
  deadline: number
}

/** Stats for tests and the bench. */
export function newProviderStats() {
  return {
    getTaxLines: 0,
    serviceCalls: 0,
    cacheHits: 0,
    fallbacks: 0,
    skippedNoAddress: 0,
    refusedCertificates: 0,
    /** ms, certificate lookup included */
    slowestQuoteMs: 0,
    refusedOrigins: 0,
  }
}
export type ProviderStats = ReturnType<typeof newProviderStats>

export type QuoteLogger = Pick<Logger, "info" | "warn" | "error" | "debug">
