/**
 * SANDBOX DATA, NOT FOR FILING.
 *
 * Taxability by product category per state. Each category is a set of TICs from the bundled TIC
 * catalogue; each state gets one rule per category (the default rule unless the state is listed
 * in the category's overrides). Every rule names its source. The real rules have many more
 * conditions (sale-for-resale, bundling, delivery method, use by a business, ...): the sandbox
 * keeps one documented simplification per state and category.
 *
 * A TIC that belongs to no category (including TIC 0, the 00000 "general goods" code, and any
 * TIC unknown to the catalogue) is taxed as general goods.
 */

export const CATEGORIES = [
  "general",
  "shipping",
  "giftCard",
  "clothing",
  "groceries",
  "preparedFood",
  "otcDrugs",
  "rxDrugs",
  "digitalGoods",
  "saas",
] as const
export type Category = (typeof CATEGORIES)[number]

/**
 * One rule. Percentages are decimal strings.
 * - taxable: the jurisdiction's combined rate on the whole line.
 * - exempt: no tax (rate 0).
 * - reducedRate: `stateRate` replaces the state base; the local component applies only when
 *   `localApplies` (e.g. Tennessee groceries 4% + local; Illinois groceries 1% flat).
 * - taxableFraction: only `fraction` of the line is taxable, at the combined rate (Texas taxes
 *   80% of data-processing services such as SaaS).
 * - exemptUpTo: per unit, the first `amount` dollars are exempt and the part above is taxed at
 *   the combined rate (Massachusetts clothing $175, Rhode Island clothing $250).
 * - stateExemptBelow: a unit priced below `amount` is exempt from the state part of the rate;
 *   the local part still applies unless the ZIP override says `clothingLocalExempt`
 *   (New York clothing under $110); at or above `amount` the combined rate applies.
 */
export type TaxRule = (
  | { kind: "taxable" }
  | { kind: "exempt" }
  | { kind: "reducedRate"; stateRate: string; localApplies: boolean }
  | { kind: "taxableFraction"; fraction: string }
  | { kind: "exemptUpTo"; amount: string }
  | { kind: "stateExemptBelow"; amount: string }
) & { source: string }

export interface CategoryTable {
  category: Category
  description: string
  /** TICs of the category, verified against the bundled catalogue (see tests). */
  tics: readonly number[]
  /** Rule for every state that levies sales tax and is not listed in `states`. */
  default: TaxRule
  states: Readonly<Record<string, TaxRule>>
}

const taxable = (source: string): TaxRule => ({ kind: "taxable", source })
const exempt = (source: string): TaxRule => ({ kind: "exempt", source })
const each = (codes: string, rule: TaxRule): Record<string, TaxRule> =>
  Object.fromEntries(
    codes
      .split(/\s+/)
      .filter(Boolean)
      .map((s) => [s, rule]),
  )

// Digital goods: the whole 31xxx "Products Transferred Electronically" family plus digital textbooks.
// Listed explicitly so the category is reviewable; the test checks each one exists in the catalogue.
const DIGITAL_TICS = [31000, 31035, 31040, 31050, 31060, 31065, 31070, 31080, 31090, 31095, 31099, 31100, 31110, 31120, 31125, 32000]

export const TAXABILITY: readonly CategoryTable[] = [
  {
    category: "general",
    description: "General tangible goods (TIC 0 / 00000 and every TIC in no other category)",
    tics: [0],
    default: taxable("general sales tax base of every state that levies one"),
    states: {},
  },
  {
    category: "shipping",
    description: "Shipping / delivery charges separately stated (TIC 11010 and its family)",
    tics: [10001, 11010, 11011, 11012, 11013, 11021, 90020, 90021, 90022],
    default: exempt("sandbox simplification: separately stated delivery charges by common carrier are not taxed in this state"),
    states: each(
      "AR CT DC GA HI IN KS KY MN MS NE NJ NM NY NC ND OH PA RI SC SD TN TX VT WA WV WI",
      taxable(
        "sandbox simplification: delivery charges are part of the taxable sales price in this state (state revenue department guidance on shipping and handling)",
      ),
    ),
  },
  {
    category: "giftCard",
    description: "Gift cards and stored-value cards (TIC 10005): not a sale of goods; tax applies on redemption",
    tics: [10005],
    default: exempt("gift cards are not tangible personal property; every state taxes the goods bought with them, not the card"),
    states: {},
  },
  {
    category: "clothing",
    description: "Clothing (TIC 20010 and family: 20000, 20130, 92008 snow suits, 92062 baby and toddler clothing)",
    tics: [20000, 20010, 20130, 92008, 92062],
    default: taxable("clothing is part of the general sales tax base in this state"),
    states: {
      ...each(
        "MN NJ PA VT",
        exempt("clothing exemption (MN Stat. 297A.67 subd. 8; NJ N.J.S.A. 54:32B-8.4; PA 72 P.S. 7204(26); VT 32 V.S.A. 9741(45))"),
      ),
      MA: {
        kind: "exemptUpTo",
        amount: "175",
        source: "Massachusetts DOR, 830 CMR 64H.6.4: clothing exempt up to $175 per item, tax on the amount above",
      },
      RI: {
        kind: "exemptUpTo",
        amount: "250",
        source: "Rhode Island Division of Taxation, R.I.G.L. 44-18-30(27): clothing exempt up to $250 per item, tax on the amount above",
      },
      NY: {
        kind: "stateExemptBelow",
        amount: "110",
        source:
          "NYS Tax Law 1115(a)(30): clothing and footwear under $110 per item exempt from the 4% state tax; local tax where the locality does not exempt it",
      },
    },
  },
  {
    category: "groceries",
    description: "Food and food ingredients for home consumption (TIC 40030, 90012 unprepared food)",
    tics: [40030, 90012],
    default: exempt("food for home consumption exempt from state and local sales tax"),
    states: {
      ...each("HI ID SD", taxable("groceries taxed at the full rate (credits or refunds for residents ignored)")),
      AL: {
        kind: "reducedRate",
        stateRate: "3",
        localApplies: true,
        source: "Alabama Act 2023-554: state rate on food 3% from 1 September 2024; local taxes apply",
      },
      AR: {
        kind: "reducedRate",
        stateRate: "0.125",
        localApplies: true,
        source: "Arkansas DFA: state rate on food and food ingredients 0.125%; local taxes apply",
      },
      IL: {
        kind: "reducedRate",
        stateRate: "1",
        localApplies: false,
        source: "Illinois Department of Revenue: qualifying food 1% (sandbox: flat 1%, no other local taxes)",
      },
      KS: {
        kind: "reducedRate",
        stateRate: "0",
        localApplies: true,
        source: "Kansas Department of Revenue: state rate on food 0% from 1 January 2025; local taxes still apply",
      },
      MO: {
        kind: "reducedRate",
        stateRate: "1.225",
        localApplies: true,
        source: "Missouri Department of Revenue: state rate on food 1.225%; local taxes apply",
      },
      MS: {
        kind: "reducedRate",
        stateRate: "5",
        localApplies: true,
        source: "Mississippi Department of Revenue: groceries 5% from 1 July 2025",
      },
      TN: {
        kind: "reducedRate",
        stateRate: "4",
        localApplies: true,
        source: "Tennessee Department of Revenue: food and food ingredients 4% state; local taxes apply",
      },
      UT: {
        kind: "reducedRate",
        stateRate: "3",
        localApplies: false,
        source: "Utah State Tax Commission: food 3% combined (1.75% state + 1.25% local)",
      },
      VA: {
        kind: "reducedRate",
        stateRate: "1",
        localApplies: false,
        source: "Virginia Department of Taxation: food for home consumption 1% (local only) from 1 January 2023",
      },
    },
  },
  {
    category: "preparedFood",
    description: "Prepared food (TIC 41000, 41041)",
    tics: [41000, 41041],
    default: taxable("prepared food is taxable in every state that levies a sales tax (separate meals taxes ignored)"),
    states: {},
  },
  {
    category: "otcDrugs",
    description: "Over-the-counter drugs for human use (TIC 51010, 51130)",
    tics: [51010, 51130],
    default: taxable("non-prescription drugs are part of the general sales tax base in this state"),
    states: {
      ...each(
        "CT DC FL MD MN NJ NY PA TX VT VA",
        exempt("non-prescription drugs / medicines exempt (state revenue department drug exemption)"),
      ),
      IL: {
        kind: "reducedRate",
        stateRate: "1",
        localApplies: false,
        source: "Illinois Department of Revenue: drugs and medicines 1% (sandbox: flat 1%)",
      },
    },
  },
  {
    category: "rxDrugs",
    description: "Prescription drugs for human use (TIC 51020, 51060 insulin with a prescription, 51140 OTC drugs with a prescription)",
    tics: [51020, 51060, 51140],
    default: exempt("prescription drugs exempt in every state"),
    states: {
      IL: {
        kind: "reducedRate",
        stateRate: "1",
        localApplies: false,
        source: "Illinois Department of Revenue: prescription drugs 1% (sandbox: flat 1%)",
      },
    },
  },
  {
    category: "digitalGoods",
    description: "Specified digital products: audio, audio-visual works and books transferred electronically (TIC 31000 family, 32000)",
    tics: DIGITAL_TICS,
    default: taxable("digital products taxed like their tangible counterparts in this state"),
    states: each(
      "CA FL GA IL KS MA MI MO NV NY OK SC VA",
      exempt("digital products transferred electronically are not tangible personal property in this state"),
    ),
  },
  {
    category: "saas",
    description: "Remotely accessed prewritten software / SaaS (TIC 30070, 93205, 93206)",
    tics: [30070, 93205, 93206],
    default: exempt("remotely accessed software is not a taxable sale in this state"),
    states: {
      ...each(
        "AZ DC HI IA KY LA MA MD MS NM NY OH PA RI SC SD TN UT WA WV",
        taxable("remotely accessed prewritten software is taxable (state revenue department SaaS guidance)"),
      ),
      CT: { kind: "reducedRate", stateRate: "1", localApplies: false, source: "Connecticut DRS: computer and data processing services 1%" },
      TX: {
        kind: "taxableFraction",
        fraction: "0.8",
        source: "Texas Comptroller: data processing services, 20% of the charge exempt (Tax Code 151.351)",
      },
    },
  },
]
