// US states and ZIPs as shoppers type them ("Texas", "N.Y.", "US-TX", "78701 1234") → the service's
// two-letter state and NNNNN[-NNNN]. Every reader of a US address goes through here, so one address
// reads the same everywhere.
import { US_STATES, US_STATE_NAMES, US_TERRITORIES, type Address } from "../../../packages/contract/src/index"
import { runtimeSlot } from "../../runtime"

/** US territories with ZIP codes, by name (the service taxes none of them: US_TERRITORIES). */
export const US_TERRITORY_NAMES: Readonly<Record<(typeof US_TERRITORIES)[number], string>> = {
  PR: "Puerto Rico",
  VI: "U.S. Virgin Islands",
  GU: "Guam",
  AS: "American Samoa",
  MP: "Northern Mariana Islands",
}

/** Traditional abbreviations and variants ("Calif.", "Tex."), keyed like `key()` reads input. */
const STATE_ALIASES: Readonly<Record<string, string>> = {
  ala: "AL",
  alas: "AK",
  ariz: "AZ",
  ark: "AR",
  cal: "CA",
  calif: "CA",
  colo: "CO",
  conn: "CT",
  del: "DE",
  washingtondc: "DC",
  fla: "FL",
  ill: "IL",
  ind: "IN",
  kans: "KS",
  mass: "MA",
  mich: "MI",
  minn: "MN",
  miss: "MS",
  mont: "MT",
  nebr: "NE",
  neb: "NE",
  nev: "NV",
  okla: "OK",
  ore: "OR",
  oreg: "OR",
  penn: "PA",
  penna: "PA",
  tenn: "TN",
  tex: "TX",
  wash: "WA",
  wis: "WI",
  wisc: "WI",
  wyo: "WY",
  // "N.Y.", "N. Dak.", "W. Va." and the like: letters only, the dots and spaces gone
  ndak: "ND",
  sdak: "SD",
  wva: "WV",
  wvirg: "WV",
}

const TERRITORY_ALIASES: Readonly<Record<string, string>> = {
  virginislands: "VI",
  usvirginislands: "VI",
  unitedstatesvirginislands: "VI",
  commonwealthofpuertorico: "PR",
  commonwealthofthenorthernmarianaislands: "MP",
}

/** The letters of an input, lower case ("N.Y." → "ny", " New  York " → "newyork", "US-TX" → "ustx"). */
function key(input: string): string {
  return input.toLowerCase().replace(/[^a-z]/g, "")
}

function table(codes: readonly string[], names: Readonly<Record<string, string>>, aliases: Readonly<Record<string, string>>) {
  const m = new Map<string, string>()
  for (const c of codes) {
    m.set(c.toLowerCase(), c)
    m.set(key(names[c]!), c)
  }
  for (const [k, c] of Object.entries(aliases)) m.set(k, c)
  return m
}

const STATES = table(US_STATES, US_STATE_NAMES, STATE_ALIASES)
const TERRITORIES = table(US_TERRITORIES, US_TERRITORY_NAMES, TERRITORY_ALIASES)

/** A checkout reads the same province on every call: remember the last key. */
const lastRead = runtimeSlot("usAddressLastKey", (): { input: string; key: string | null } => ({ input: "", key: null }))

/** The lookup key of an input, or null when it is blank or too long to be a state. */
function inputKey(input: string | null | undefined): string | null {
  if (typeof input !== "string" || input.length > 60) return null
  const last = lastRead()
  if (input !== last.input) [last.input, last.key] = [input, readKey(input)]
  return last.key
}

function readKey(input: string): string | null {
  // letters, spaces and the punctuation of names and abbreviations only ("T3X" is not Texas)
  if (!/^[A-Za-z\s.,'’()–-]*$/.test(input)) return null
  // "US-TX", "us tx", "US.TX": an ISO 3166-2 prefix on a two-letter code
  const iso = /^\s*u\.?\s*s\.?\s*[-–. ]\s*([a-z]{2})\s*\.?\s*$/i.exec(input)
  const k = iso ? iso[1]!.toLowerCase() : key(input)
  return k || null
}

/** A US state or DC as two upper-case letters from a code, name, abbreviation or "US-TX"; else null. */
export function normalizeUsState(input: string | null | undefined): string | null {
  const k = inputKey(input)
  return k ? (STATES.get(k) ?? null) : null
}

/** A US territory ("PR", "Puerto Rico", "US-GU") or military "state" (AA, AE, AP) → its code, else null. The service taxes none. */
export function usTerritory(input: string | null | undefined): string | null {
  const k = inputKey(input)
  if (!k) return null
  return TERRITORIES.get(k) ?? (MILITARY.has(k.toUpperCase()) ? k.toUpperCase() : null)
}

/** "78701", "78701-1234", "787011234", "78701 1234", " 78701 " → { zip, zip4? }; anything else → null. */
export function normalizeUsZip(input: string | null | undefined): { zip: string; zip4?: string } | null {
  if (typeof input !== "string" || input.length > 30) return null
  if (/^\d{5}$/.test(input)) return { zip: input }
  // a separator only with the extension: "78701-" alone is not a ZIP+4
  const m = /^(\d{5})(?:(?:\s*[-–]\s*|\s+)?(\d{4}))?$/.exec(input.trim())
  if (!m) return null
  return m[2] ? { zip: m[1]!, zip4: m[2] } : { zip: m[1]! }
}

/** The service's address from Medusa's street lines and city (trimmed, 100 characters at most) and a resolved state and ZIP. */
export function serviceLines(
  a: { address_1?: string | null; address_2?: string | null; city?: string | null },
  state: string,
  zip: string,
): Address {
  const line2 = a.address_2?.trim()
  return {
    line1: (a.address_1 ?? "").trim().slice(0, 100),
    ...(line2 ? { line2: line2.slice(0, 100) } : {}),
    city: (a.city ?? "").trim().slice(0, 100),
    state,
    zip,
  }
}

/** The service's spelling of a normalized ZIP: NNNNN or NNNNN-NNNN. */
export function zipText(z: { zip: string; zip4?: string }): string {
  return z.zip4 ? `${z.zip}-${z.zip4}` : z.zip
}

/** USPS ZIP3 prefixes → state, DC, territory or AA/AE/AP (APO/FPO). A few ZIPs cross a state line: the service has the last word. */
export const ZIP3_RANGES: ReadonlyArray<readonly [number, number, string]> = [
  [5, 5, "NY"],
  [6, 7, "PR"],
  [8, 8, "VI"],
  [9, 9, "PR"],
  [10, 27, "MA"],
  [28, 29, "RI"],
  [30, 38, "NH"],
  [39, 49, "ME"],
  [50, 54, "VT"],
  [55, 55, "MA"],
  [56, 59, "VT"],
  [60, 69, "CT"],
  [70, 89, "NJ"],
  [90, 98, "AE"],
  [100, 149, "NY"],
  [150, 196, "PA"],
  [197, 199, "DE"],
  [200, 200, "DC"],
  [201, 201, "VA"],
  [202, 205, "DC"],
  [206, 219, "MD"],
  [220, 246, "VA"],
  [247, 268, "WV"],
  [270, 289, "NC"],
  [290, 299, "SC"],
  [300, 319, "GA"],
  [320, 339, "FL"],
  [340, 340, "AA"],
  [341, 349, "FL"],
  [350, 369, "AL"],
  [370, 385, "TN"],
  [386, 397, "MS"],
  [398, 399, "GA"],
  [400, 427, "KY"],
  [430, 459, "OH"],
  [460, 479, "IN"],
  [480, 499, "MI"],
  [500, 528, "IA"],
  [530, 549, "WI"],
  [550, 567, "MN"],
  [569, 569, "DC"],
  [570, 577, "SD"],
  [580, 588, "ND"],
  [590, 599, "MT"],
  [600, 629, "IL"],
  [630, 658, "MO"],
  [660, 679, "KS"],
  [680, 693, "NE"],
  [700, 714, "LA"],
  [716, 729, "AR"],
  [730, 732, "OK"],
  [733, 733, "TX"],
  [734, 749, "OK"],
  [750, 799, "TX"],
  [800, 816, "CO"],
  [820, 831, "WY"],
  [832, 838, "ID"],
  [840, 847, "UT"],
  [850, 865, "AZ"],
  [870, 884, "NM"],
  [885, 885, "TX"],
  [889, 898, "NV"],
  [900, 961, "CA"],
  [962, 966, "AP"],
  [967, 968, "HI"],
  [969, 969, "GU"],
  [970, 979, "OR"],
  [980, 994, "WA"],
  [995, 999, "AK"],
]

/** The state (or DC, territory, military AA/AE/AP) a 5-digit ZIP's prefix belongs to, or null (unassigned). */
export function zipPrefixState(zip5: string): string | null {
  if (!/^\d{5}$/.test(zip5)) return null
  return ZIP3[(zip5.charCodeAt(0) - 48) * 100 + (zip5.charCodeAt(1) - 48) * 10 + zip5.charCodeAt(2) - 48] ?? null
}
const ZIP3: (string | undefined)[] = new Array(1000)
for (const [lo, hi, st] of ZIP3_RANGES) ZIP3.fill(st, lo, hi + 1)

/** APO/FPO/DPO "states": US addresses the service does not tax (like the territories). */
const MILITARY = new Set<string>(["AA", "AE", "AP"])
const UNTAXED_SET = new Set<string>([...US_TERRITORIES, ...MILITARY])

/** The state and ZIP sent to the service, and where they came from. */
export interface ResolvedDestination {
  state: string
  zip: string
  zip4?: string
  source: "typed" | "verified"
}

/**
 * What to do with a US shipping address before quoting (pure): typed = the typed state is the ZIP's;
 * verify = the state is missing or disagrees with the ZIP: ask verify-address with `state` (the ZIP's,
 * else the typed one); territory = a territory or APO/FPO address, taxed by none; unresolved.
 */
export type DestinationPlan =
  | { kind: "typed"; destination: ResolvedDestination }
  | { kind: "verify"; state: string; zip: { zip: string; zip4?: string } }
  | { kind: "territory"; territory: string }
  | { kind: "unresolved"; field: "postal_code" | "province" }

export function planDestination(province: string | null | undefined, postalCode: string | null | undefined): DestinationPlan {
  const typed = normalizeUsState(province)
  const zip = normalizeUsZip(postalCode)
  if (!zip) {
    const territory = usTerritory(province)
    return territory ? { kind: "territory", territory } : { kind: "unresolved", field: "postal_code" }
  }
  const byZip = zipPrefixState(zip.zip)
  if (byZip && UNTAXED_SET.has(byZip)) {
    // a typed state with a territory or APO/FPO ZIP: the ZIP decides, but only the service's answer
    // lets it go untaxed (asked with the territory; AA/AE/AP are no state it takes: the typed one)
    if (typed) return { kind: "verify", state: MILITARY.has(byZip) ? typed : byZip, zip }
    return { kind: "territory", territory: byZip }
  }
  if (typed && typed === byZip) return { kind: "typed", destination: { state: typed, ...zip, source: "typed" } }
  const ask = byZip ?? typed
  if (ask) return { kind: "verify", state: ask, zip }
  const territory = usTerritory(province)
  if (territory) return { kind: "territory", territory }
  return { kind: "unresolved", field: "province" }
}

/** The storefront-showable refusal of a US cart whose destination cannot be resolved (contract). */
export const ADDRESS_UNRESOLVED_CODE = "sales_tax_address_unresolved"
export const ADDRESS_UNRESOLVED_MESSAGE = "We could not find the state for this address; check the state and ZIP."
/** The refusal of a US-destination cart in a currency other than USD (the plugin quotes and files dollars only). */
export const CURRENCY_UNSUPPORTED_CODE = "sales_tax_currency_unsupported"
export function currencyUnsupportedMessage(currency: string): string {
  return `US sales tax is computed in USD only; this cart is in ${currency.toUpperCase()}. Choose a US dollar region for a US address.`
}
