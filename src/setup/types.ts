// What the setup checks read (Query's rows) and what they answer.
import type { Address } from "../../packages/contract/src/index"
import type { LocationAddressLike } from "../service/origins/origins"

export interface SetupRegion {
  id: string
  name?: string | null
  currency_code?: string | null
  countries?: { iso_2?: string | null }[] | null
  payment_providers?: { id: string }[] | null
}

export interface SetupTaxRegion {
  id: string
  country_code?: string | null
  province_code?: string | null
  parent_id?: string | null
  provider_id?: string | null
}

export type SetupSalesChannel = { id: string; name?: string | null; is_disabled?: boolean | null }

export interface SetupProduct {
  id: string
  title: string
  sales_channel_ids: string[]
  on_default_tic: boolean
  /** its variants' managed inventory items, each with the locations holding a level of it */
  inventory: { id: string; location_ids: string[] }[]
}

export interface SetupShippingOption {
  id: string
  name?: string | null
  price_type?: string | null
  provider_id?: string | null
  shipping_profile_id?: string | null
  type?: { label?: string | null; description?: string | null; code?: string | null } | null
  prices?: { currency_code?: string | null; amount?: number | string | null; price_rules?: unknown[] | null }[] | null
  rules?: { attribute?: string | null; operator?: string | null; value?: unknown }[] | null
}

export interface SetupServiceZone {
  id: string
  name?: string | null
  geo_zones?: { type?: string | null; country_code?: string | null }[] | null
  shipping_options?: SetupShippingOption[] | null
}

export interface SetupLocation {
  id: string
  name?: string | null
  address?: LocationAddressLike | null
  sales_channels?: { id: string }[] | null
  fulfillment_providers?: { id: string }[] | null
  fulfillment_sets?: { id: string; name?: string | null; type?: string | null; service_zones?: SetupServiceZone[] | null }[] | null
}

export interface SetupInput {
  regions: SetupRegion[]
  taxRegions: SetupTaxRegion[]
  salesTaxProviderIds: string[]
  salesChannels: SetupSalesChannel[]
  locations: SetupLocation[]
  /** the published products, up to a bound */
  products: SetupProduct[]
  productsTruncated: boolean
  defaultTic: number
  origin: Address
  connection: { ok: boolean; error?: string | null }
}

export type SetupCheckId = "us_region" | "us_tax_region" | "us_location" | "us_shipping" | "us_stock" | "us_tics" | "connection"
export const SETUP_FIX_IDS = [
  "create_us_region",
  "create_us_tax_region",
  "use_provider_for_us_tax_region",
  "create_us_location",
  "link_us_location",
  "add_us_shipping",
] as const
export type SetupFixId = (typeof SETUP_FIX_IDS)[number]

export interface SetupItem {
  id: SetupCheckId
  title: string
  done: boolean
  detail: string
  /** the unambiguous action (a button) */
  fix?: { id: SetupFixId; label: string }
  /** the action that needs a person's choice */
  help?: { text: string; href?: string }
}
