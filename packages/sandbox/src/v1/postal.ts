/**
 * The delivery line as the legacy VerifyAddress answers it: the street suffix abbreviated and the
 * secondary unit (apartment, suite, floor, "#", ...) folded into Address1 the way the postal
 * service writes it (USPS Publication 28), so that Address2 is always null. What is not part of a
 * postal address (a name, "Attn ...", a delivery note) is dropped.
 */

/** Publication 28, appendix C1: the common street suffixes. */
const SUFFIXES = new Map(
  Object.entries({
    alley: "Aly",
    avenue: "Ave",
    av: "Ave",
    boulevard: "Blvd",
    circle: "Cir",
    court: "Ct",
    cove: "Cv",
    crossing: "Xing",
    drive: "Dr",
    expressway: "Expy",
    freeway: "Fwy",
    highway: "Hwy",
    lane: "Ln",
    loop: "Loop",
    parkway: "Pkwy",
    place: "Pl",
    plaza: "Plz",
    point: "Pt",
    road: "Rd",
    route: "Rte",
    square: "Sq",
    street: "St",
    terrace: "Ter",
    trail: "Trl",
    turnpike: "Tpke",
    way: "Way",
  }),
)
/** Publication 28, appendix C2: secondary unit designators (null: the designator takes no number). */
const DESIGNATORS = new Map<string, readonly [string, boolean]>(
  Object.entries({
    apartment: ["Apt", true],
    apt: ["Apt", true],
    suite: ["Ste", true],
    ste: ["Ste", true],
    unit: ["Unit", true],
    floor: ["Fl", true],
    fl: ["Fl", true],
    flr: ["Fl", true],
    room: ["Rm", true],
    rm: ["Rm", true],
    building: ["Bldg", true],
    bldg: ["Bldg", true],
    department: ["Dept", true],
    dept: ["Dept", true],
    lot: ["Lot", true],
    space: ["Spc", true],
    spc: ["Spc", true],
    trailer: ["Trlr", true],
    trlr: ["Trlr", true],
    hangar: ["Hngr", true],
    hngr: ["Hngr", true],
    pier: ["Pier", true],
    slip: ["Slip", true],
    stop: ["Stop", true],
    key: ["Key", true],
    penthouse: ["Ph", false],
    ph: ["Ph", false],
    basement: ["Bsmt", false],
    bsmt: ["Bsmt", false],
    front: ["Frnt", false],
    frnt: ["Frnt", false],
    rear: ["Rear", false],
    side: ["Side", false],
    upper: ["Uppr", false],
    uppr: ["Uppr", false],
    lower: ["Lowr", false],
    lowr: ["Lowr", false],
    lobby: ["Lbby", false],
    lbby: ["Lbby", false],
    office: ["Ofc", false],
    ofc: ["Ofc", false],
  }),
)
const ORDINAL_WORDS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
const DIRECTIONALS = /^(?:n|s|e|w|ne|nw|se|sw|north|south|east|west)$/i
const PO_BOX = /^p\.?\s?o\.?\s?box\s+(\w+)$/i

const tidy = (s: string | null | undefined): string => (s ?? "").trim().replace(/\s+/g, " ")

/** The street line with its suffix (the last suffix word, before any post-directional) abbreviated. */
export function abbreviateSuffix(line1: string): string {
  const words = tidy(line1).split(" ")
  let i = words.length - 1
  if (i > 0 && DIRECTIONALS.test(words[i] ?? "")) i--
  const key = (words[i] ?? "").replace(/\.$/, "").toLowerCase()
  const short = i > 0 ? SUFFIXES.get(key) : undefined
  if (short) words[i] = short
  return words.join(" ")
}

/**
 * A secondary line in postal form, or null when it is not part of a postal address: "Suite 100" →
 * "Ste 100", "apt. 4b" → "Apt 4B", "#12" → "# 12", "Rear" → "Rear", and a unit written before its
 * designator ("Third Floor", "3rd fl") → "# 3", as the postal service writes a unit out of place.
 */
export function postalUnit(line2: string | null | undefined): string | null {
  const t = tidy(line2)
  if (!t) return null
  const hash = /^#\s*(\w+)$/.exec(t)
  if (hash?.[1]) return `# ${hash[1].toUpperCase()}`
  const box = PO_BOX.exec(t)
  if (box?.[1]) return `PO Box ${box[1].toUpperCase()}`
  const ordinal = /^(\d+|[a-z]+?)(?:st|nd|rd|th)?\s+(?:floor|flr|fl)\.?$/i.exec(t)?.[1]?.toLowerCase()
  const word = ORDINAL_WORDS.indexOf(/^(\w+)/.exec(t)?.[1]?.toLowerCase() ?? "")
  if (ordinal && /^\d+$/.test(ordinal)) return `# ${Number(ordinal)}`
  if (ordinal && word >= 0) return `# ${word + 1}`
  const m = /^([a-z]+)\.?(?:\s+#?\s*([\w-]+))?$/i.exec(t)
  const d = m?.[1] ? DESIGNATORS.get(m[1].toLowerCase()) : undefined
  if (!m || !d) return null
  const [short, numbered] = d
  if (numbered !== Boolean(m[2])) return null
  return m[2] ? `${short} ${m[2].toUpperCase()}` : short
}

/** Address1 and Address2 of a verified address: one delivery line, Address2 null. */
export function postalLines(line1: string | null | undefined, line2: string | null | undefined): { Address1: string; Address2: null } {
  const street = abbreviateSuffix(line1 ?? "")
  const unit = postalUnit(line2)
  if (!unit) return { Address1: street, Address2: null }
  // a PO Box is a delivery line of its own: it stands in for a missing street line only
  if (unit.startsWith("PO Box")) return { Address1: street || unit, Address2: null }
  return { Address1: street ? `${street} ${unit}` : unit, Address2: null }
}
