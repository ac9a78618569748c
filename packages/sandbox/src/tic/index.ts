/**
 * TIC catalogue and natural-language search for the sandbox.
 *
 * The catalogue is the bundled copy of ../shared/data/tic-catalog.json (./data/tic-catalog.ts).
 * Search ranking is MiniSearch's BM25+ (a maintained library; no hand-written scorer). What this
 * module adds around it is text normalization (tokenizing, stop words, plurals, "without a
 * prescription" -> "nonprescription") and a small, documented synonym table (./synonyms.ts):
 * query-side expansions ("ebook" -> digital book) and index-side keywords for a few TICs, plus
 * category words (garments, foods, supplements, digital goods, services...: "legging" -> clothing).
 * A word the vocabulary lacks is read as a compound ("sweatpants" -> sweat + pant), a stem
 * ("golfing" -> golf) or a misspelling ("shampo" -> shampoo), in that order.
 */
import { createHash } from "node:crypto"
import MiniSearch from "minisearch"
import type { TicResult } from "@medusa-sales-tax/contract"
import { TIC_CATALOG } from "./data/tic-catalog"
import { GROUP_LABELS, INDEX_KEYWORDS, NICHE_QUALIFIERS, QUERY_EXPANSIONS, STOP_WORDS, WEAK_WORDS } from "./synonyms"

export interface TicEntry {
  ticId: number
  label: string
  description: string
  groupId: number
}

export class InvalidCursorError extends Error {
  constructor(message = "cursor is not valid for this query") {
    super(message)
    this.name = "InvalidCursorError"
  }
}

// ---------------------------------------------------------------------------------------------
// Catalogue and groups
// ---------------------------------------------------------------------------------------------

/**
 * Groups: the catalogue is flat, so a TIC's group is its 2-digit family (ticId rounded down to
 * the thousand: 20130 -> 20000, 51060 -> 51000); TIC 0 is group 0. A group's description is the
 * catalogue's description of the family head when the catalogue has one (10000 Administrative,
 * 20000 Clothing, ...) and a sandbox label from GROUP_LABELS otherwise.
 */
export function groupOf(ticId: number): number {
  return ticId < 10000 ? 0 : Math.floor(ticId / 1000) * 1000
}

/** The catalogue's description cleaned for display: trimmed, an "Appendix E" artefact removed. */
const clean = (s: string) =>
  s
    .replace(/Appendix E$/, "")
    .trim()
    .replace(/\s+/g, " ")

const ENTRIES: readonly TicEntry[] = TIC_CATALOG.map((t) => ({
  ticId: t.TICID,
  label: clean(t.Description),
  description: t.Description.trim(),
  groupId: groupOf(t.TICID),
}))
const BY_ID = new Map<number, TicEntry>(ENTRIES.map((e) => [e.ticId, e]))
/** ticId -> the niche qualifiers (NICHE_QUALIFIERS keys) its label carries. */
const NICHE_OF = new Map<number, string[]>(
  ENTRIES.map((e) => [e.ticId, Object.keys(NICHE_QUALIFIERS).filter((k) => NICHE_QUALIFIERS[k].pattern.test(e.label))]),
)

const GROUPS: readonly { groupId: number; description: string }[] = [...new Set(ENTRIES.map((e) => e.groupId))]
  .sort((a, b) => a - b)
  .map((groupId) => ({
    groupId,
    description: BY_ID.get(groupId)?.label ?? GROUP_LABELS[groupId] ?? `TIC family ${groupId}`,
  }))

export function getTic(ticId: number): TicEntry | undefined {
  const e = BY_ID.get(ticId)
  return e && { ...e }
}

export function allTics(): TicEntry[] {
  return ENTRIES.map((e) => ({ ...e }))
}

/** For legacy GetTICGroups. */
export function ticGroups(): { groupId: number; description: string }[] {
  return GROUPS.map((g) => ({ ...g }))
}

/** For legacy GetTICsByGroup; [] for an unknown group. */
export function ticsInGroup(groupId: number): TicEntry[] {
  return ENTRIES.filter((e) => e.groupId === groupId).map((e) => ({ ...e }))
}

// ---------------------------------------------------------------------------------------------
// Text normalization (used for both the index and the queries)
// ---------------------------------------------------------------------------------------------

const IRREGULAR: Record<string, string> = {
  children: "child",
  feet: "foot",
  men: "man",
  women: "woman",
  teeth: "tooth",
  geese: "goose",
  mice: "mouse",
  // -ves plurals of -f/-fe words (gloves, sleeves, valves keep their e: they are not listed)
  // words that end in s but are not plurals
  saas: "saas",
  gas: "gas",
  news: "news",
  series: "series",
  species: "species",
  chassis: "chassis",
  lens: "lens",
  bus: "bus",
  scarves: "scarf",
  knives: "knife",
  leaves: "leaf",
  shelves: "shelf",
  loaves: "loaf",
  halves: "half",
  wolves: "wolf",
  calves: "calf",
  wives: "wife",
  lives: "life",
}
/** -ie words whose plural is -ies ("movies" -> "movie", not "movy"). */
const IE_WORDS = new Set([
  "movie",
  "cookie",
  "pie",
  "tie",
  "hoodie",
  "brownie",
  "smoothie",
  "selfie",
  "calorie",
  "zombie",
  "rookie",
  "beanie",
  "onesie",
  "lingerie",
  "goalie",
  "veggie",
  "bootie",
  "freebie",
  "sweetie",
  "prairie",
  "genie",
  "eerie",
  "necktie",
  "bowtie",
])
const NO_STRIP = /(ss|us|is|ics|ous)$/

/** Lower-case, singular form of a word; null for a stop word (or the plural of one: "items"). */
export function normalizeTerm(word: string): string | null {
  const n = singular(word)
  return n === null || STOP_WORDS.has(n) ? null : n
}

function singular(word: string): string | null {
  const w = word.toLowerCase()
  if (!w || STOP_WORDS.has(w) || /^[a-z]$/.test(w)) return null // stop words and stray letters ("children's" -> children, s)
  if (IRREGULAR[w]) return IRREGULAR[w]
  if (w.length > 4 && w.endsWith("ies")) return IE_WORDS.has(w.slice(0, -1)) ? w.slice(0, -1) : w.slice(0, -3) + "y"
  if (w.length > 4 && /(ches|shes|xes|sses)$/.test(w)) return w.slice(0, -2)
  if (w.length > 3 && w.endsWith("s") && !NO_STRIP.test(w)) return w.slice(0, -1)
  return w
}

/** Splits text into normalized terms. Negations are folded into one term ("without a prescription", "non-prescription" -> "nonprescription"). */
export function tokenize(text: string): string[] {
  const t = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "") // fold diacritics: "crème" -> "creme"
    .toLowerCase()
    .replace(/\bover[-\s]the[-\s]counter\b/g, " otc ")
    .replace(/\be[-\s]?books?\b/g, " ebook ")
    .replace(/\bt[-\s]shirts?\b/g, " tshirt ")
    .replace(/\bvideo[-\s]?games?\b/g, " videogame ")
    .replace(/\bswim[-\s]?suits?\b/g, " swimsuit ")
    .replace(/\bpre[-\s]?workouts?\b/g, " preworkout ")
    .replace(/\bwithout\s+(?:an?\s+|the\s+)?([a-z]+)/g, " non$1 ")
    .replace(/\bnon[-\s]([a-z]+)/g, " non$1 ")
  const out: string[] = []
  for (const raw of t.split(/[^a-z0-9]+/)) {
    const n = normalizeTerm(raw)
    if (n) out.push(n)
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Index
// ---------------------------------------------------------------------------------------------

interface Doc {
  id: number
  label: string
  keywords: string
}

let index: MiniSearch<Doc> | null = null
function getIndex(): MiniSearch<Doc> {
  if (index) return index
  const ms = new MiniSearch<Doc>({
    fields: ["label", "keywords"],
    tokenize: (text) => tokenize(text),
    processTerm: (term) => term, // tokenize already normalized
  })
  ms.addAll(ENTRIES.map((e) => ({ id: e.ticId, label: e.label, keywords: (INDEX_KEYWORDS[e.ticId] ?? []).join(" ") })))
  index = ms
  return ms
}

// ---------------------------------------------------------------------------------------------
// Vocabulary and spelling
// ---------------------------------------------------------------------------------------------

let vocabulary: Set<string> | null = null
/**
 * The known words: every normalized term of the catalogue labels and index keywords (they match
 * documents) and every key of QUERY_EXPANSIONS (they expand to catalogue words). A query holding
 * one of them never comes back empty (tested).
 */
export function knownWords(): ReadonlySet<string> {
  if (vocabulary) return vocabulary
  const v = new Set<string>()
  for (const e of ENTRIES) for (const t of tokenize(e.label)) v.add(t)
  for (const words of Object.values(INDEX_KEYWORDS)) for (const t of tokenize(words.join(" "))) v.add(t)
  for (const k of Object.keys(QUERY_EXPANSIONS)) v.add(k)
  vocabulary = v
  return v
}

export function isKnownWord(word: string): boolean {
  const t = tokenize(word)
  return t.length > 0 && t.every((x) => knownWords().has(x))
}

let speller: MiniSearch<{ id: string }> | null = null
/**
 * The known word closest to a misspelled one ("shampo" -> "shampoo", "sneekers" -> "sneaker"),
 * or null: MiniSearch's fuzzy (Levenshtein) matching over the vocabulary, at most 1 edit for
 * words of 4-7 letters and 2 from 8 letters; the best-scoring (fewest edits, then shortest) wins.
 */
export function correctSpelling(term: string): string | null {
  if (term.length < 4 || /\d/.test(term)) return null
  if (knownWords().has(term)) return term
  if (!speller) {
    speller = new MiniSearch<{ id: string }>({ fields: ["id"], tokenize: (t) => [t], processTerm: (t) => t })
    speller.addAll([...knownWords()].filter((w) => w.length >= 3).map((id) => ({ id })))
  }
  const maxEdits = term.length >= 8 ? 2 : 1
  const hits = speller.search(term, { fuzzy: (t) => (t.length >= 8 ? 2 : 1), prefix: false })
  let best: { word: string; edits: number } | null = null
  for (const h of hits) {
    const word = h.id as string
    const edits = editDistance(term, word, maxEdits)
    if (edits > maxEdits) continue
    if (!best || edits < best.edits || (edits === best.edits && word.length < best.word.length)) best = { word, edits }
  }
  return best?.word ?? null
}

/** Levenshtein distance, stopping early above `max` (the candidates come from MiniSearch's fuzzy match). */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const cur = [i]
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      rowMin = Math.min(rowMin, cur[j]!)
    }
    if (rowMin > max) return max + 1
    prev = cur
  }
  return prev[b.length]!
}

/** Weight of a misspelled word's correction (a word the caller typed, read as the known word). */
const CORRECTION_WEIGHT = 0.9
/** Weight of a compound's head ("sweat|pants" -> pant) and of its known first part (sweat). */
const COMPOUND_HEAD_WEIGHT = 0.9
const COMPOUND_MODIFIER_WEIGHT = 0.5
/** Weight of a known word reached by stripping a suffix ("golfing" -> golf, "drilling" -> drill). */
const STEM_WEIGHT = 0.8
/**
 * A word made of two words, read as its parts: a known last part (the compound's head:
 * "sweatpants" -> pant, "raincoat" -> coat, "nightgown" -> gown) of at least 3 letters after a first
 * part of at least 3. A split into two known words wins ("sweat|shirt", not "swea|tshirt"), else the
 * longest known head; the first part is returned when it is known. Null when no split ends in a
 * known word.
 */
export function splitCompound(term: string): { head: string; modifier: string | null } | null {
  if (term.length < 6 || term.length > 40 || /\d/.test(term)) return null
  let best: { head: string; modifier: string | null } | null = null
  for (let i = 3; i <= term.length - 3; i++) {
    const head = singular(term.slice(i))
    if (!head || head.length < 3 || !knownWords().has(head)) continue
    const left = singular(term.slice(0, i))
    const modifier = left && knownWords().has(left) ? left : null
    if (modifier) return { head, modifier }
    best ??= { head, modifier: null }
  }
  return best
}

/**
 * A known word this unknown word is an inflection or derivation of: -ing, -ed, -er, -able, -ly
 * stripped (with the final e restored or a doubled consonant undone: "golfing" -> golf,
 * "skier" -> ski, "drilling" -> drill). Null when none is known.
 */
export function stemOf(term: string): string | null {
  if (term.length > 40) return null
  const m = /^(.{3,}?)(ing|ed|er|able|ly)$/.exec(term)
  if (!m) return null
  const base = m[1]!
  const candidates = [base, `${base}e`]
  if (/([b-df-hj-np-tv-z])\1$/.test(base)) candidates.push(base.slice(0, -1))
  return candidates.find((c) => knownWords().has(c)) ?? null
}

/**
 * Query terms with their weights: the normalized query terms (weight 1; WEAK_WORDS less), the
 * reading of a word the vocabulary lacks (its compound parts, its stem, else its spelling
 * correction), plus the expansions from QUERY_EXPANSIONS of each (each with its table weight
 * times the word's, never above an original term's).
 */
export function expandQuery(query: string): Map<string, number> {
  const terms = new Map<string, number>()
  const add = (term: string, w: number) => terms.set(term, Math.max(terms.get(term) ?? 0, w))
  const expand = (t: string, weight: number) => {
    add(t, weight)
    for (const [x, w] of QUERY_EXPANSIONS[t] ?? []) for (const xt of tokenize(x)) add(xt, w * weight)
  }
  for (const t of tokenize(query)) {
    const weight = WEAK_WORDS[t] ?? 1
    if (knownWords().has(t)) {
      expand(t, weight)
      continue
    }
    add(t, weight) // still searched as typed (MiniSearch's own prefix/fuzzy matching)
    if (WEAK_WORDS[t] !== undefined) continue // a colour, a size, a marketing word: not a misspelling
    const compound = splitCompound(t)
    if (compound) {
      expand(compound.head, COMPOUND_HEAD_WEIGHT * weight)
      if (compound.modifier) expand(compound.modifier, COMPOUND_MODIFIER_WEIGHT * weight)
      continue
    }
    const stem = stemOf(t)
    if (stem) {
      expand(stem, STEM_WEIGHT * weight)
      continue
    }
    const fixed = correctSpelling(t)
    if (fixed) expand(fixed, CORRECTION_WEIGHT * weight)
  }
  return terms
}

interface Ranked {
  ticId: number
  score: number
}

/** Small LRU of ranked lists, so paging through one query ranks it once. */
const RANK_CACHE = new Map<string, Ranked[]>()
const RANK_CACHE_SIZE = 200

function rankAll(query: string): Ranked[] {
  const key = query.trim().toLowerCase()
  const hit = RANK_CACHE.get(key)
  if (hit) {
    RANK_CACHE.delete(key)
    RANK_CACHE.set(key, hit)
    return hit
  }
  const ranked = rankUncached(query)
  RANK_CACHE.set(key, ranked)
  if (RANK_CACHE.size > RANK_CACHE_SIZE) RANK_CACHE.delete(RANK_CACHE.keys().next().value as string)
  return ranked
}

/**
 * The score of the fallback: a query that finds nothing (a brand, a product's made-up name, words
 * the vocabulary lacks) but has a word answers the general-merchandise TIC 0 at this low score, so
 * that a product-like query is never empty and a caller weighing scores sees how little it says.
 */
export const FALLBACK_SCORE = 0.05

function rankUncached(query: string): Ranked[] {
  const ranked = rankText(query)
  return ranked.length || !/[\p{L}\p{N}]/u.test(query) ? ranked : [{ ticId: 0, score: FALLBACK_SCORE }]
}

function rankText(query: string): Ranked[] {
  const terms = expandQuery(query)
  const originals = new Set(tokenize(query))
  // Niche variants (animal use, sales to hospitals, free samples, resale...) count less unless the query asks for them.
  const asked = new Set(Object.keys(NICHE_QUALIFIERS).filter((k) => NICHE_QUALIFIERS[k].askedBy.some((w) => originals.has(w))))
  const out: Ranked[] = []
  // A query that is a TIC number puts that TIC first.
  const asId = query.trim()
  if (/^\d{1,5}$/.test(asId) && BY_ID.has(Number(asId))) out.push({ ticId: Number(asId), score: Number.POSITIVE_INFINITY })
  if (terms.size === 0) return out.map((r) => ({ ...r, score: 1 }))

  const hits = getIndex().search([...terms.keys()].join(" "), {
    tokenize: (s) => s.split(" "),
    processTerm: (s) => s,
    boost: { label: 1, keywords: 0.6 },
    boostTerm: (term) => terms.get(term) ?? 1,
    // Prefix and fuzzy matching only for the words the caller typed, and only for longer words.
    prefix: (term) => originals.has(term) && term.length >= 4,
    fuzzy: (term) => (originals.has(term) && term.length >= 6 ? 0.2 : false),
    weights: { prefix: 0.3, fuzzy: 0.2 },
    boostDocument: (id) => {
      let f = 1
      for (const k of NICHE_OF.get(id as number) ?? []) if (!asked.has(k)) f *= NICHE_QUALIFIERS[k].factor
      return f
    },
  })
  for (const h of hits) if (h.id !== out[0]?.ticId) out.push({ ticId: h.id as number, score: h.score })
  // Normalize to 0..1 against the best text score; the exact-id hit (if any) scores 1.
  const max = Math.max(0, ...out.filter((r) => Number.isFinite(r.score)).map((r) => r.score))
  return out
    .map((r) => ({ ticId: r.ticId, score: Number.isFinite(r.score) ? (max > 0 ? r.score / max : 0) : 1 }))
    .sort((a, b) => b.score - a.score || a.ticId - b.ticId)
}

// ---------------------------------------------------------------------------------------------
// Cursor
// ---------------------------------------------------------------------------------------------

const queryKey = (query: string) =>
  createHash("sha256")
    .update(tokenize(query).join(" ") + "\u0000" + query.trim().toLowerCase())
    .digest("base64url")
    .slice(0, 16)

function encodeCursor(query: string, offset: number): string {
  return Buffer.from(JSON.stringify({ v: 1, o: offset, q: queryKey(query) }), "utf8").toString("base64url")
}

function decodeCursor(cursor: string, query: string, total: number): number {
  let parsed: unknown
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error("not base64url")
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"))
  } catch {
    throw new InvalidCursorError("cursor is malformed")
  }
  const c = parsed as { v?: unknown; o?: unknown; q?: unknown }
  if (!c || typeof c !== "object" || c.v !== 1 || typeof c.o !== "number" || !Number.isInteger(c.o) || c.o < 1 || typeof c.q !== "string") {
    throw new InvalidCursorError("cursor is malformed")
  }
  if (c.q !== queryKey(query)) throw new InvalidCursorError("cursor belongs to another query")
  if (c.o > total) throw new InvalidCursorError("cursor is past the end of the results")
  return c.o
}

// ---------------------------------------------------------------------------------------------
// Search
// ---------------------------------------------------------------------------------------------

const round4 = (x: number) => Math.round(x * 10000) / 10000

/**
 * Ranked natural-language search; cursor is opaque, from nextCursor. Throws InvalidCursorError on
 * a bad cursor (garbage, or a cursor issued for another query). `limit` is clamped to 1..100.
 * score is in 0..1 (1 = the best match of the query), rank is 1-based across pages.
 */
export function searchTics(query: string, limit: number, cursor?: string): { results: TicResult[]; nextCursor: string | null } {
  const size = Math.min(100, Math.max(1, Math.floor(Number.isFinite(limit) ? limit : 10)))
  const ranked = rankAll(query)
  const offset = cursor === undefined ? 0 : decodeCursor(cursor, query, ranked.length)
  const page = ranked.slice(offset, offset + size)
  const results: TicResult[] = page.map((r, i) => {
    const e = BY_ID.get(r.ticId)!
    return { ticId: e.ticId, label: e.label, description: e.description, score: round4(r.score), rank: offset + i + 1 }
  })
  const next = offset + size
  return { results, nextCursor: next < ranked.length ? encodeCursor(query, next) : null }
}
