/**
 * ZIP+4 for the sandbox's legacy VerifyAddress (v1). The `zipcodes` database knows 5-digit ZIPs,
 * not ZIP+4 (a real service assigns the +4 from the delivery line with the postal database). So:
 * - KNOWN_ZIP4: the published ZIP+4 of a few addresses the tests and docs use;
 * - any other street address (with a house number) in a ZIP the sandbox knows gets a stable
 *   sandbox +4 derived from the ZIP and the normalized street line (the same address always gets
 *   the same +4, never "0000"; not a real postal +4: the sandbox has no postal database);
 * - no house number, or a ZIP the sandbox does not know: no +4.
 * VerifyAddress answers the published +4, else the +4 the caller sent, else the sandbox's.
 */
import { lookupZip } from "."

/** "zip5|NORMALIZED STREET LINE" -> +4. */
export const KNOWN_ZIP4: Readonly<Record<string, string>> = {
  // the Space Needle (SEATTLE in the v1 tests, SEATTLE_V3)
  "98109|400 BROAD ST": "4607",
}

const SUFFIXES: Readonly<Record<string, string>> = {
  STREET: "ST",
  AVENUE: "AVE",
  AV: "AVE",
  ROAD: "RD",
  BOULEVARD: "BLVD",
  DRIVE: "DR",
  LANE: "LN",
  COURT: "CT",
  PLACE: "PL",
  PARKWAY: "PKWY",
  HIGHWAY: "HWY",
  TERRACE: "TER",
  CIRCLE: "CIR",
  SQUARE: "SQ",
  NORTH: "N",
  SOUTH: "S",
  EAST: "E",
  WEST: "W",
  NORTHEAST: "NE",
  NORTHWEST: "NW",
  SOUTHEAST: "SE",
  SOUTHWEST: "SW",
  FIFTH: "5TH",
}

/** A street line as the postal service writes it, for matching: upper case, no punctuation, usual abbreviations ("400 Broad Street" -> "400 BROAD ST"). */
export function normalizeStreet(line: string): string {
  return line
    .toUpperCase()
    .replace(/[.,#]/g, " ")
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => SUFFIXES[w] ?? w)
    .join(" ")
}

/** FNV-1a, 32 bits. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

/** The published +4 of a street line in a 5-digit ZIP when KNOWN_ZIP4 has it, else null. */
export function knownZip4(zip5: string, line1: string): string | null {
  return KNOWN_ZIP4[`${zip5}|${normalizeStreet(line1)}`] ?? null
}

/**
 * The +4 the sandbox gives a street line (with a house number) in a ZIP it knows: the published
 * one when known, else a stable sandbox +4 (0001-9999) derived from the ZIP and the normalized
 * line ("400 Broad Street" and "400 broad st." get the same). Null without a house number or for
 * a ZIP the sandbox does not know.
 */
export function zip4For(zip5: string, line1: string): string | null {
  const street = normalizeStreet(line1)
  if (!/\d/.test(street) || !lookupZip(zip5)) return null
  return knownZip4(zip5, line1) ?? String(1 + (fnv1a(`${zip5}|${street}`) % 9999)).padStart(4, "0")
}
