/**
 * The setup checklist (issue 30), the pure part: what a store needs before it quotes US sales tax
 * through this plugin, from what Medusa's Query returned. Each item is done, or names the one
 * action that fixes it: a fix (a button in Settings → Sales Tax, `--fix` of the setup script) when
 * that action is unambiguous, else instructions. `planFix` turns a fix id into the exact records
 * to create or change (src/setup/medusa.ts runs them through Medusa's workflows).
 *
 * Items, in the order a merchant does them:
 *   us_region      a region in USD holding the United States
 *   us_tax_region  the US tax region (country, no province) on this plugin's provider
 *   us_location    per enabled sales channel: a stock location of that channel with a complete US address
 *   us_shipping    per enabled sales channel: a shipping option for US addresses from such a location
 *   connection     the Sales Tax Service answers (ping) with the configured key and connection
 *
 * The parts: types.ts (what the checks read and answer), selectors.ts (which records count),
 * checklist.ts (the items, their printing), fixes.ts (planFix). This file is their one entry.
 */
export {
  SETUP_CHECK_IDS,
  SETUP_FIX_IDS,
  type SetupCheckId,
  type SetupFixId,
  type SetupInput,
  type SetupItem,
  type SetupLocation,
  type SetupProduct,
  type SetupRegion,
  type SetupSalesChannel,
  type SetupServiceZone,
  type SetupShippingOption,
  type SetupTaxRegion,
} from "./types"
export {
  addressLine,
  isReturnOption,
  isUsOrigin,
  sellingChannels,
  servesUsOrders,
  shippingTemplates,
  usRegion,
  usShippingOptions,
  usTaxRegion,
  usdPrice,
} from "./selectors"
export { formatChecklist, nextFix, setupChecklist } from "./checklist"
export { planFix, type FixPlan } from "./fixes"
