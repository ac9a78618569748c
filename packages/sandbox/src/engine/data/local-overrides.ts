/**
 * SANDBOX DATA, NOT FOR FILING.
 *
 * A few 3-digit ZIP prefixes whose local component replaces the state average of `states.ts`,
 * so that well-known test addresses get their city's published combined rate (2025). A ZIP
 * prefix is a coarse stand-in for a city (it also covers some neighbouring places that really
 * have other rates): the sandbox applies the override to every ZIP of the prefix, and only when
 * the address's state is the override's state.
 */

export interface LocalOverride {
  /** 3-digit ZIP prefixes. */
  zip3: readonly string[]
  state: string
  place: string
  /** Local component in percent (decimal string) that replaces the state average. */
  local: string
  /** The combined rate it yields with the state base, for the docs and tests (percent). */
  combined: string
  /**
   * New York only: clothing and footwear under $110 is exempt from the local tax too
   * (New York City and the MCTD do not tax it); elsewhere in NY the sandbox taxes it locally.
   */
  clothingLocalExempt?: boolean
  source: string
}

export const LOCAL_OVERRIDES: readonly LocalOverride[] = [
  {
    zip3: ["554"],
    state: "MN",
    place: "Minneapolis",
    local: "2.15",
    combined: "9.025",
    source:
      "Minnesota Department of Revenue, Minneapolis combined rate 9.025% (state 6.875 + Hennepin County, metro transportation/housing and city taxes)",
  },
  {
    zip3: ["100", "101", "102", "103", "104", "110", "111", "112", "113", "114", "116"],
    state: "NY",
    place: "New York City",
    local: "4.875",
    combined: "8.875",
    clothingLocalExempt: true,
    source: "NYS Department of Taxation and Finance, Publication 718: New York City 8.875% (4% state + 4.5% city + 0.375% MCTD)",
  },
  {
    zip3: ["606"],
    state: "IL",
    place: "Chicago",
    local: "4",
    combined: "10.25",
    source: "Illinois Department of Revenue / City of Chicago: combined general merchandise rate 10.25%",
  },
  {
    zip3: ["900"],
    state: "CA",
    place: "Los Angeles",
    local: "2.5",
    combined: "9.75",
    source: "California CDTFA, City of Los Angeles 9.75% (from 1 April 2025)",
  },
  {
    zip3: ["941"],
    state: "CA",
    place: "San Francisco",
    local: "1.375",
    combined: "8.625",
    source: "California CDTFA, City and County of San Francisco 8.625%",
  },
  {
    zip3: ["981"],
    state: "WA",
    place: "Seattle",
    local: "3.85",
    combined: "10.35",
    source: "Washington Department of Revenue, Seattle combined rate 10.35% (2025 Q1)",
  },
  {
    zip3: ["770", "752", "787"],
    state: "TX",
    place: "Houston / Dallas / Austin",
    local: "2",
    combined: "8.25",
    source: "Texas Comptroller: Houston, Dallas and Austin combined 8.25% (6.25% state + 2% local cap)",
  },
  {
    zip3: ["191"],
    state: "PA",
    place: "Philadelphia",
    local: "2",
    combined: "8",
    source: "Pennsylvania Department of Revenue: Philadelphia 8% (6% state + 2% local)",
  },
  {
    zip3: ["152"],
    state: "PA",
    place: "Pittsburgh (Allegheny County)",
    local: "1",
    combined: "7",
    source: "Pennsylvania Department of Revenue: Allegheny County 7% (6% state + 1% local)",
  },
  {
    zip3: ["303"],
    state: "GA",
    place: "Atlanta",
    local: "4.9",
    combined: "8.9",
    source: "Georgia Department of Revenue, City of Atlanta (Fulton County) 8.9%",
  },
  {
    zip3: ["331"],
    state: "FL",
    place: "Miami (Miami-Dade County)",
    local: "1",
    combined: "7",
    source: "Florida Department of Revenue, Miami-Dade County discretionary surtax 1% (7% combined)",
  },
]
