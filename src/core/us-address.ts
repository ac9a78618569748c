/**
 * The shared US address normalizer (contract: docs of issue 26): a typed state or ZIP as the
 * service takes it. Minimal version written by the filing side; the checkout side's version (same
 * path and signatures) replaces it at merge.
 */
import { US_STATES } from "../contract"

const CODES = new Set<string>(US_STATES)

const NAMES: Record<string, string> = {
  ALABAMA: "AL",
  ALASKA: "AK",
  ARIZONA: "AZ",
  ARKANSAS: "AR",
  CALIFORNIA: "CA",
  COLORADO: "CO",
  CONNECTICUT: "CT",
  DELAWARE: "DE",
  "DISTRICT OF COLUMBIA": "DC",
  FLORIDA: "FL",
  GEORGIA: "GA",
  HAWAII: "HI",
  IDAHO: "ID",
  ILLINOIS: "IL",
  INDIANA: "IN",
  IOWA: "IA",
  KANSAS: "KS",
  KENTUCKY: "KY",
  LOUISIANA: "LA",
  MAINE: "ME",
  MARYLAND: "MD",
  MASSACHUSETTS: "MA",
  MICHIGAN: "MI",
  MINNESOTA: "MN",
  MISSISSIPPI: "MS",
  MISSOURI: "MO",
  MONTANA: "MT",
  NEBRASKA: "NE",
  NEVADA: "NV",
  "NEW HAMPSHIRE": "NH",
  "NEW JERSEY": "NJ",
  "NEW MEXICO": "NM",
  "NEW YORK": "NY",
  "NORTH CAROLINA": "NC",
  "NORTH DAKOTA": "ND",
  OHIO: "OH",
  OKLAHOMA: "OK",
  OREGON: "OR",
  PENNSYLVANIA: "PA",
  "RHODE ISLAND": "RI",
  "SOUTH CAROLINA": "SC",
  "SOUTH DAKOTA": "SD",
  TENNESSEE: "TN",
  TEXAS: "TX",
  UTAH: "UT",
  VERMONT: "VT",
  VIRGINIA: "VA",
  WASHINGTON: "WA",
  "WEST VIRGINIA": "WV",
  WISCONSIN: "WI",
  WYOMING: "WY",
}

/** "TX", "tx", "US-TX", "Texas", " new  york " → the two-letter code (states and DC); anything else → null. */
export function normalizeUsState(input: string | null | undefined): string | null {
  if (!input) return null
  const s = input.trim().toUpperCase().replace(/\s+/g, " ").replace(/\.$/, "")
  const code = s.replace(/^US-/, "")
  if (CODES.has(code)) return code
  return NAMES[s] ?? null
}

/** "78701", "78701-1234", "787011234", "78701 1234" → { zip, zip4? }; anything else → null. */
export function normalizeUsZip(input: string | null | undefined): { zip: string; zip4?: string } | null {
  if (!input) return null
  const m = /^(\d{5})(?:[- ]?(\d{4}))?$/.exec(input.trim())
  if (!m) return null
  return m[2] ? { zip: m[1]!, zip4: m[2] } : { zip: m[1]! }
}
