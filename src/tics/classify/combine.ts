// Pure: a product's suggested TIC: each query's top hits vote for their TIC (weight × score), the
// most voted wins, the next two are alternatives. Confidence (0-1): the evidence's agreement on it
// times its margin over the first runner-up of another kind.
import type { TicResult } from "../../../packages/contract/src/index"
import type { Evidence } from "./evidence"

/** Hits asked per search (the suggestion and two alternatives). */
export const HITS = 3

/** A search result as the classification keeps it (and caches it). */
export type SearchHit = Pick<TicResult, "ticId" | "label" | "score">

export interface Suggestion {
  tic: number
  label: string
  confidence: number
  alternatives: { tic: number; label: string }[]
  /** the queries whose best hit is the suggestion, and the others */
  agreeing: string[]
  disagreeing: string[]
}

/** A hit scoring under this is a search's fallback for words it does not know (a brand, a colour): no evidence. */
export const MIN_HIT_SCORE = 0.1
/** Under this a suggestion is low: shown, never applied by "accept all". */
export const LOW_CONFIDENCE = 0.5
export const MIN_ACCEPT_ALL = LOW_CONFIDENCE

const round2 = (n: number) => Math.round(n * 100) / 100

const MINOR_WORDS = new Set(["and", "or", "the", "for", "with", "except", "other", "than", "non", "all", "any"])
function labelWords(label: string): Set<string> {
  const words = label.toLowerCase().match(/[a-z]{3,}/g) ?? []
  return new Set(words.filter((w) => !MINOR_WORDS.has(w)))
}

/** The last word of a label's first clause: "Clothing, except …" → clothing, "Clothing accessories or equipment" → accessories. */
const headWord = (label: string) => [...labelWords(label.split(/,| or | - |\(/)[0] ?? "")].pop()

/** The same kind, named more broadly or narrowly: the same head word, one label's words within the other's. */
export function sameKind(a: string, b: string): boolean {
  const [x, y] = [labelWords(a), labelWords(b)]
  const within = (p: Set<string>, q: Set<string>) => p.size > 0 && [...p].every((w) => q.has(w))
  return headWord(a) !== undefined && headWord(a) === headWord(b) && (within(x, y) || within(y, x))
}

/** The suggestion, or null when nothing was found (a query missing from `hits` was not searched). */
export function combineEvidence(evidence: readonly Evidence[], hits: ReadonlyMap<string, readonly SearchHit[]>): Suggestion | null {
  const votes = new Map<number, { label: string; votes: number }>()
  const found = (e: Evidence) => (hits.get(e.query) ?? []).filter((h) => h.score >= MIN_HIT_SCORE)
  const answered = evidence.filter((e) => found(e).length > 0)
  for (const e of answered)
    for (const h of found(e).slice(0, HITS)) {
      const v = votes.get(h.ticId) ?? { label: h.label, votes: 0 }
      v.votes += e.weight * Math.max(0, h.score)
      votes.set(h.ticId, v)
    }
  const ranked = [...votes.entries()].sort((a, b) => b[1].votes - a[1].votes || a[0] - b[0])
  const [top] = ranked
  if (!top || top[1].votes <= 0) return null
  const totalWeight = answered.reduce((s, e) => s + e.weight, 0)
  const scoreOf = (e: Evidence) => found(e).find((h) => h.ticId === top[0])?.score ?? 0
  const agreement = answered.reduce((s, e) => s + e.weight * Math.min(1, Math.max(0, scoreOf(e))), 0) / totalWeight
  const rival = ranked.slice(1).find(([, v]) => !sameKind(v.label, top[1].label))
  const margin = rival ? (top[1].votes - rival[1].votes) / top[1].votes : 1
  return {
    tic: top[0],
    label: top[1].label,
    confidence: round2(agreement * (0.5 + 0.5 * margin)),
    alternatives: ranked.slice(1, 3).map(([tic, v]) => ({ tic, label: v.label })),
    agreeing: answered.filter((e) => found(e)[0]!.ticId === top[0]).map((e) => e.query),
    disagreeing: answered.filter((e) => found(e)[0]!.ticId !== top[0]).map((e) => e.query),
  }
}
