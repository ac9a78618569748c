/**
 * Offline address verification for the sandbox, from the `zipcodes` package (US ZIP database
 * with the postal city name and state of each 5-digit ZIP, plus Canadian forward sortation areas).
 *
 * Rules (documented in docs/sandbox-engine.md):
 * - US (countryCode absent or "US"): the 5-digit ZIP must be in the database (else error on
 *   `zip`) and its state must equal the given state (else error on `zip`: the ZIP and the state
 *   disagree). The city is replaced by the database's city for the ZIP (the database has one
 *   city per ZIP, so another acceptable city name is normalized rather than rejected).
 *   ZIP+4 is kept as given; the state is upper-cased; lines are trimmed and inner spaces collapsed.
 * - CA: the first three characters (FSA) must be known and in the given province; the postal
 *   code is normalized to "A1A 1A1"; the city is kept (trimmed), the database has regions, not cities.
 */
import * as zipcodes from "zipcodes"
import type { Address } from "@medusa-sales-tax/contract"
import { CA_POSTAL_RE, US_ZIP_RE } from "@medusa-sales-tax/contract"

export type VerifyField = "zip" | "state" | "city"
export type VerifyResult = { ok: true; address: Address } | { ok: false; errors: { field: VerifyField; message: string; value: unknown }[] }

/** Full province names as the `zipcodes` Canadian data spells them, to their abbreviations. */
const PROVINCES: Record<string, string> = {
  Alberta: "AB",
  "British Columbia": "BC",
  Manitoba: "MB",
  "New Brunswick": "NB",
  "Newfoundland and Labrador": "NL",
  "Nova Scotia": "NS",
  "Northwest Territory": "NT",
  "Nunavut Territory": "NU",
  Ontario: "ON",
  "Prince Edward Island": "PE",
  Quebec: "QC",
  Saskatchewan: "SK",
  Yukon: "YT",
}

/** Postal city and state of a US 5-digit ZIP, or undefined when the ZIP is not in the database. */
export function lookupZip(zip5: string): { city: string; state: string } | undefined {
  if (!/^\d{5}$/.test(zip5)) return undefined
  const z = zipcodes.lookup(zip5)
  if (!z || z.country !== "US") return undefined
  return { city: z.city, state: z.state }
}

const tidy = (s: string) => s.trim().replace(/\s+/g, " ")

function tidyLines(addr: Address): Pick<Address, "line1" | "line2"> {
  const out: Pick<Address, "line1" | "line2"> = { line1: tidy(addr.line1) }
  if (addr.line2 !== undefined) out.line2 = addr.line2 === null ? null : tidy(addr.line2)
  return out
}

export function verifyAddress(addr: Address): VerifyResult {
  const state = tidy(addr.state).toUpperCase()
  const zip = tidy(addr.zip)
  if (addr.countryCode === "CA") return verifyCanadian(addr, state, zip)

  if (!US_ZIP_RE.test(zip)) {
    return {
      ok: false,
      errors: [
        {
          field: "zip",
          message: "zip must be 5 digits, optionally followed by a hyphen and 4 digits (NNNNN or NNNNN-NNNN)",
          value: addr.zip,
        },
      ],
    }
  }
  const found = lookupZip(zip.slice(0, 5))
  if (!found) {
    return { ok: false, errors: [{ field: "zip", message: `ZIP code ${zip.slice(0, 5)} is not a known US ZIP code`, value: addr.zip }] }
  }
  if (found.state !== state) {
    return {
      ok: false,
      errors: [{ field: "zip", message: `ZIP code ${zip.slice(0, 5)} is in ${found.state}, not in ${state}`, value: addr.zip }],
    }
  }
  const address: Address = { ...tidyLines(addr), city: found.city, state, zip }
  if (addr.countryCode) address.countryCode = addr.countryCode
  return { ok: true, address }
}

function verifyCanadian(addr: Address, province: string, postal: string): VerifyResult {
  if (!CA_POSTAL_RE.test(postal)) {
    return { ok: false, errors: [{ field: "zip", message: "zip must be a Canadian postal code (A1A 1A1)", value: addr.zip }] }
  }
  const compact = postal.replace(/\s/g, "").toUpperCase()
  const fsa = compact.slice(0, 3)
  const z = zipcodes.lookup(fsa)
  const found = z && z.country === "Canada" ? PROVINCES[z.state] : undefined
  if (!found) {
    return {
      ok: false,
      errors: [{ field: "zip", message: `postal code area ${fsa} is not a known Canadian forward sortation area`, value: addr.zip }],
    }
  }
  if (found !== province) {
    return { ok: false, errors: [{ field: "zip", message: `postal code area ${fsa} is in ${found}, not in ${province}`, value: addr.zip }] }
  }
  const city = tidy(addr.city)
  if (!city) return { ok: false, errors: [{ field: "city", message: "city is required", value: addr.city }] }
  return {
    ok: true,
    address: { ...tidyLines(addr), city, state: province, zip: `${compact.slice(0, 3)} ${compact.slice(3)}`, countryCode: "CA" },
  }
}
