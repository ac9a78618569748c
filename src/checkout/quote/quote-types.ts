/** The shapes the quote pipeline passes between its stages (provider.ts is their face to Medusa). */
import type { ItemTaxLineDTO, ShippingTaxLineDTO } from "@medusajs/framework/types"
import type { Address, CartIn } from "../../../packages/contract/src/index"
import type { SalesTaxClient } from "../../service/client"

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
