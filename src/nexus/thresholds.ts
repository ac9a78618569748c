// Economic nexus thresholds per state, overridable (`nexus.thresholds`): the service taxes only where
// the merchant is registered, so this tells where to register next.
import type { NexusThreshold, PeriodKind } from "../options"
import { US_STATE_NAMES } from "../../packages/contract/src/index"

/** When the table was last checked against the states' guidance. */
export const THRESHOLDS_AS_OF = "2026-01-01"

/** A state's threshold (the fields an override may change: options.ts) with its name. */
export type NexusRule = { state: string; name: string } & Required<NexusThreshold>

const P = "previous_or_current_year" as const
type Row = [state: keyof typeof US_STATE_NAMES, sales: number | null, transactions: number | null, period: PeriodKind, source: string]

const ROWS: Row[] = [
  ["AL", 250_000, null, "previous_year", "Ala. Admin. Code r. 810-6-2-.90.03"],
  ["AK", 100_000, null, P, "Alaska Remote Seller Sales Tax Code (ARSSTC), local sales tax; 200 transactions dropped 2025-01-01"],
  ["AZ", 100_000, null, P, "A.R.S. § 42-5043"],
  ["AR", 100_000, 200, P, "Ark. Code § 26-52-111"],
  ["CA", 500_000, null, P, "Cal. Rev. & Tax. Code § 6203(c)(4)"],
  ["CO", 100_000, null, P, "Colo. Rev. Stat. § 39-26-102(3)(c)"],
  ["CT", 100_000, 200, "twelve_months_to_sept_30", "Conn. Gen. Stat. § 12-407(a)(12)(G): both tests"],
  ["DE", null, null, P, "no state sales tax"],
  ["DC", 100_000, 200, P, "D.C. Code § 47-2001(n-1)"],
  ["FL", 100_000, null, "previous_year", "Fla. Stat. § 212.0596(2)(a)"],
  ["GA", 100_000, 200, P, "O.C.G.A. § 48-8-2(8)(M.1)"],
  ["HI", 100_000, 200, P, "Haw. Rev. Stat. § 237-2.5"],
  ["ID", 100_000, null, P, "Idaho Code § 63-3611"],
  ["IL", 100_000, null, "trailing_12_months", "35 ILCS 120/2; 200 transactions dropped 2026-01-01"],
  ["IN", 100_000, null, P, "Ind. Code § 6-2.5-2-1(c); 200 transactions dropped 2024-07-01"],
  ["IA", 100_000, null, P, "Iowa Code § 423.14A"],
  ["KS", 100_000, null, P, "K.S.A. 79-3702(h)(1)(F)"],
  ["KY", 100_000, 200, P, "KRS 139.340(2)(g)"],
  ["LA", 100_000, null, P, "La. R.S. 47:301(4)(m); 200 transactions dropped 2023-08-01"],
  ["ME", 100_000, null, P, "36 M.R.S. § 1951-B"],
  ["MD", 100_000, 200, P, "COMAR 03.06.01.33"],
  ["MA", 100_000, null, P, "830 CMR 64H.1.7"],
  ["MI", 100_000, 200, "previous_year", "MCL 205.52b"],
  ["MN", 100_000, 200, "trailing_12_months", "Minn. Stat. § 297A.66, subd. 3"],
  ["MS", 250_000, null, "trailing_12_months", "Miss. Admin. Code 35.IV.3.09"],
  ["MO", 100_000, null, "trailing_12_months", "RSMo § 144.605(2)(e)"],
  ["MT", null, null, P, "no state sales tax"],
  ["NE", 100_000, 200, P, "Neb. Rev. Stat. § 77-2701.13"],
  ["NV", 100_000, 200, P, "NRS 360B.220"],
  ["NH", null, null, P, "no state sales tax"],
  ["NJ", 100_000, 200, P, "N.J.S.A. 54:32B-3.5"],
  ["NM", 100_000, null, "previous_year", "NMSA § 7-9-3.3"],
  ["NY", 500_000, 100, "four_quarters", "N.Y. Tax Law § 1101(b)(8)(i)(E): both tests"],
  ["NC", 100_000, null, P, "N.C.G.S. § 105-164.8(b)(9); 200 transactions dropped 2024-07-01"],
  ["ND", 100_000, null, P, "N.D.C.C. § 57-39.2-02.2"],
  ["OH", 100_000, 200, P, "R.C. 5741.01(I)(1)(h)"],
  ["OK", 100_000, null, P, "68 O.S. § 1392"],
  ["OR", null, null, P, "no state sales tax"],
  ["PA", 100_000, null, "previous_year", "72 P.S. § 7213.1"],
  ["RI", 100_000, 200, "previous_year", "R.I. Gen. Laws § 44-18.2-3"],
  ["SC", 100_000, null, P, "S.C. Code § 12-36-71"],
  ["SD", 100_000, null, P, "SDCL 10-64-2; 200 transactions dropped 2023-07-01"],
  ["TN", 100_000, null, "trailing_12_months", "Tenn. Comp. R. & Regs. 1320-05-01-.129"],
  ["TX", 500_000, null, "trailing_12_months", "34 Tex. Admin. Code § 3.286(b)(2)"],
  ["UT", 100_000, null, P, "Utah Code § 59-12-107(2)(c); 200 transactions dropped 2025-07-01"],
  ["VT", 100_000, 200, "four_quarters", "32 V.S.A. § 9701(9)(F)"],
  ["VA", 100_000, 200, P, "Va. Code § 58.1-612(C)(9)"],
  ["WA", 100_000, null, P, "RCW 82.08.0531"],
  ["WV", 100_000, 200, P, "W. Va. Code § 11-15A-6b"],
  ["WI", 100_000, null, P, "Wis. Stat. § 77.51(13gm)"],
  ["WY", 100_000, null, P, "Wyo. Stat. § 39-15-501; 200 transactions dropped 2024-07-01"],
]

export const NEXUS_RULES: readonly NexusRule[] = ROWS.map(([state, sales, transactions, period, source]) => ({
  state,
  name: US_STATE_NAMES[state],
  sales,
  transactions,
  combine: state === "CT" || state === "NY" ? "and" : "or",
  period,
  netsReturns: false,
  source,
}))

/** The shipped table with the option `nexus.thresholds` applied. */
export function nexusRules(overrides: Record<string, NexusThreshold> = {}): NexusRule[] {
  return NEXUS_RULES.map((r) => {
    const o = overrides[r.state]
    return o ? { ...r, source: "store option (medusa-config)", ...o } : { ...r }
  })
}
