/**
 * SANDBOX DATA, NOT FOR FILING.
 *
 * State base rates and a simplified local component for the 50 states and DC, as of
 * 1 January 2025 unless a row says otherwise. Rates are percentages written as decimal strings
 * (never floats) so the engine can do exact decimal arithmetic on them.
 *
 * - `base`: the state-level rate as published by the state revenue department (sources below).
 * - `local`: ONE number per state standing for all local (county / city / district) taxes: an
 *   approximate population-weighted average local rate as compiled by the Tax Foundation
 *   ("State and Local Sales Tax Rates, 2025"), rounded to 2 decimals. Real local rates vary by
 *   address; the sandbox only varies them for the few ZIP prefixes in `local-overrides.ts`.
 * - `noSalesTax`: the state levies no general sales tax; every line is 0 there.
 *
 * The numbers are good enough to exercise realistic arithmetic (mixed rates with 3 decimals,
 * local-only states, zero-rate states) and were transcribed by hand: they are not authoritative.
 */

export interface StateRateRow {
  /** USPS abbreviation. */
  state: string
  /** State rate in percent, decimal string. */
  base: string
  /** Simplified (average) local rate in percent, decimal string. */
  local: string
  noSalesTax?: boolean
  /** Where the base rate comes from. */
  source: string
  /** Where the local component comes from / what it stands for. */
  localSource: string
  note?: string
}

const TF_2025 = "Tax Foundation, State and Local Sales Tax Rates 2025: average local rate (approximate, rounded)"
const NO_LOCAL = "no local sales taxes (state-administered rate only)"

export const STATE_RATES: readonly StateRateRow[] = [
  {
    state: "AL",
    base: "4",
    local: "5.29",
    source: "Alabama Department of Revenue, state sales tax rate 4%",
    localSource: TF_2025,
  },
  {
    state: "AK",
    base: "0",
    local: "1.82",
    source: "Alaska has no state sales tax (Alaska Department of Revenue)",
    localSource: "Tax Foundation 2025 average of borough/city sales taxes (approximate); sandbox choice: applied statewide",
    note: "Local-only state: the sandbox taxes every Alaska destination at the average local rate (1.82%), as a remote seller collecting for ARSSTC member localities would, instead of 0.",
  },
  {
    state: "AZ",
    base: "5.6",
    local: "2.92",
    source: "Arizona Department of Revenue, transaction privilege tax (retail) 5.6%",
    localSource: TF_2025,
  },
  {
    state: "AR",
    base: "6.5",
    local: "2.95",
    source: "Arkansas Department of Finance and Administration, 6.5%",
    localSource: TF_2025,
  },
  {
    state: "CA",
    base: "7.25",
    local: "1.6",
    source: "California CDTFA, statewide base rate 7.25% (includes the uniform 1.25% local portion)",
    localSource: TF_2025 + " (district taxes above the 7.25% base)",
  },
  {
    state: "CO",
    base: "2.9",
    local: "4.91",
    source: "Colorado Department of Revenue, state rate 2.9%",
    localSource: TF_2025,
  },
  {
    state: "CT",
    base: "6.35",
    local: "0",
    source: "Connecticut Department of Revenue Services, 6.35%",
    localSource: NO_LOCAL,
  },
  {
    state: "DE",
    base: "0",
    local: "0",
    noSalesTax: true,
    source: "Delaware levies no sales tax (gross receipts tax on sellers only)",
    localSource: NO_LOCAL,
  },
  {
    state: "DC",
    base: "6",
    local: "0",
    source: "DC Office of Tax and Revenue, 6% (rate as of 1 January 2025)",
    localSource: NO_LOCAL,
  },
  {
    state: "FL",
    base: "6",
    local: "1",
    source: "Florida Department of Revenue, state rate 6%",
    localSource: TF_2025 + " (discretionary sales surtax)",
  },
  { state: "GA", base: "4", local: "3.38", source: "Georgia Department of Revenue, state rate 4%", localSource: TF_2025 },
  {
    state: "HI",
    base: "4",
    local: "0.5",
    source: "Hawaii Department of Taxation, general excise tax 4%",
    localSource: TF_2025 + " (county surcharges)",
  },
  {
    state: "ID",
    base: "6",
    local: "0.03",
    source: "Idaho State Tax Commission, 6%",
    localSource: TF_2025 + " (resort city taxes)",
  },
  {
    state: "IL",
    base: "6.25",
    local: "2.64",
    source: "Illinois Department of Revenue, general merchandise 6.25%",
    localSource: TF_2025,
  },
  { state: "IN", base: "7", local: "0", source: "Indiana Department of Revenue, 7%", localSource: NO_LOCAL },
  {
    state: "IA",
    base: "6",
    local: "0.94",
    source: "Iowa Department of Revenue, state rate 6%",
    localSource: TF_2025 + " (local option sales tax)",
  },
  {
    state: "KS",
    base: "6.5",
    local: "2.19",
    source: "Kansas Department of Revenue, state rate 6.5%",
    localSource: TF_2025,
  },
  { state: "KY", base: "6", local: "0", source: "Kentucky Department of Revenue, 6%", localSource: NO_LOCAL },
  {
    state: "LA",
    base: "5",
    local: "5.11",
    source: "Louisiana Department of Revenue, state rate 5% from 1 January 2025 (was 4.45%)",
    localSource: TF_2025,
  },
  { state: "ME", base: "5.5", local: "0", source: "Maine Revenue Services, general rate 5.5%", localSource: NO_LOCAL },
  { state: "MD", base: "6", local: "0", source: "Comptroller of Maryland, 6%", localSource: NO_LOCAL },
  {
    state: "MA",
    base: "6.25",
    local: "0",
    source: "Massachusetts Department of Revenue, 6.25%",
    localSource: NO_LOCAL,
  },
  { state: "MI", base: "6", local: "0", source: "Michigan Department of Treasury, 6%", localSource: NO_LOCAL },
  {
    state: "MN",
    base: "6.875",
    local: "1.29",
    source: "Minnesota Department of Revenue, state rate 6.875%",
    localSource: TF_2025,
  },
  { state: "MS", base: "7", local: "0.06", source: "Mississippi Department of Revenue, 7%", localSource: TF_2025 },
  {
    state: "MO",
    base: "4.225",
    local: "4.19",
    source: "Missouri Department of Revenue, state rate 4.225%",
    localSource: TF_2025,
  },
  {
    state: "MT",
    base: "0",
    local: "0",
    noSalesTax: true,
    source: "Montana levies no general sales tax (Montana Department of Revenue)",
    localSource: "resort-area taxes are ignored by the sandbox",
  },
  {
    state: "NE",
    base: "5.5",
    local: "1.47",
    source: "Nebraska Department of Revenue, state rate 5.5%",
    localSource: TF_2025,
  },
  {
    state: "NV",
    base: "6.85",
    local: "1.39",
    source: "Nevada Department of Taxation, statewide minimum 6.85%",
    localSource: TF_2025,
  },
  {
    state: "NH",
    base: "0",
    local: "0",
    noSalesTax: true,
    source: "New Hampshire levies no general sales tax (the meals and rooms tax is ignored by the sandbox)",
    localSource: NO_LOCAL,
  },
  {
    state: "NJ",
    base: "6.625",
    local: "0",
    source: "New Jersey Division of Taxation, 6.625%",
    localSource: "no local sales taxes (urban enterprise zone reduced rates ignored)",
  },
  {
    state: "NM",
    base: "4.875",
    local: "2.74",
    source: "New Mexico Taxation and Revenue Department, gross receipts tax state rate 4.875% (from 1 July 2024)",
    localSource: TF_2025,
  },
  {
    state: "NY",
    base: "4",
    local: "4.53",
    source: "New York State Department of Taxation and Finance, state rate 4%",
    localSource: TF_2025,
  },
  {
    state: "NC",
    base: "4.75",
    local: "2.25",
    source: "North Carolina Department of Revenue, state rate 4.75%",
    localSource: TF_2025,
  },
  {
    state: "ND",
    base: "5",
    local: "2.04",
    source: "North Dakota Office of State Tax Commissioner, 5%",
    localSource: TF_2025,
  },
  { state: "OH", base: "5.75", local: "1.5", source: "Ohio Department of Taxation, state rate 5.75%", localSource: TF_2025 },
  { state: "OK", base: "4.5", local: "4.56", source: "Oklahoma Tax Commission, state rate 4.5%", localSource: TF_2025 },
  { state: "OR", base: "0", local: "0", noSalesTax: true, source: "Oregon levies no sales tax", localSource: NO_LOCAL },
  {
    state: "PA",
    base: "6",
    local: "0.34",
    source: "Pennsylvania Department of Revenue, 6%",
    localSource: TF_2025 + " (Allegheny County 1%, Philadelphia 2%)",
  },
  { state: "RI", base: "7", local: "0", source: "Rhode Island Division of Taxation, 7%", localSource: NO_LOCAL },
  {
    state: "SC",
    base: "6",
    local: "1.5",
    source: "South Carolina Department of Revenue, state rate 6%",
    localSource: TF_2025,
  },
  {
    state: "SD",
    base: "4.2",
    local: "1.91",
    source: "South Dakota Department of Revenue, state rate 4.2% (from 1 July 2023)",
    localSource: TF_2025,
  },
  {
    state: "TN",
    base: "7",
    local: "2.55",
    source: "Tennessee Department of Revenue, state rate 7%",
    localSource: TF_2025,
  },
  {
    state: "TX",
    base: "6.25",
    local: "1.95",
    source: "Texas Comptroller of Public Accounts, state rate 6.25%",
    localSource: TF_2025,
  },
  {
    state: "UT",
    base: "4.85",
    local: "2.57",
    source: "Utah State Tax Commission, state rate 4.85%",
    localSource: TF_2025 + " (includes the 1.25% uniform statewide local rate)",
  },
  {
    state: "VT",
    base: "6",
    local: "0.36",
    source: "Vermont Department of Taxes, 6%",
    localSource: TF_2025 + " (local option tax)",
  },
  {
    state: "VA",
    base: "4.3",
    local: "1.47",
    source: "Virginia Department of Taxation, state rate 4.3%",
    localSource: TF_2025 + " (includes the 1% statewide local rate)",
  },
  {
    state: "WA",
    base: "6.5",
    local: "2.98",
    source: "Washington Department of Revenue, state rate 6.5%",
    localSource: TF_2025,
  },
  {
    state: "WV",
    base: "6",
    local: "0.57",
    source: "West Virginia Tax Division, state rate 6%",
    localSource: TF_2025,
  },
  {
    state: "WI",
    base: "5",
    local: "0.72",
    source: "Wisconsin Department of Revenue, state rate 5%",
    localSource: TF_2025 + " (county and stadium taxes)",
  },
  { state: "WY", base: "4", local: "1.44", source: "Wyoming Department of Revenue, state rate 4%", localSource: TF_2025 },
]
