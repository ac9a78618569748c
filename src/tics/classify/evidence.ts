// Pure: a product's listing as weighted search queries, one per field (a category with its parents,
// the description's first sentence); the same query from two fields is one, their weights summed.
export interface ProductListing {
  id: string
  title: string | null
  subtitle?: string | null
  description?: string | null
  type?: string | null
  /** each category's path of names, root first: ["Clothing", "Pants"] */
  categories?: string[][]
  collection?: string | null
  tags?: string[]
}

export interface Evidence {
  query: string
  weight: number
  sources: EvidenceSource[]
}

/** What the product is named and filed under outweighs the rest. */
const WEIGHTS = { title: 3, type: 2, category: 3, subtitle: 1, description: 1, collection: 1, tags: 1 } as const
type EvidenceSource = keyof typeof WEIGHTS

const MAX_WORDS = 12
const MAX_CHARS = 200
const MAX_TAGS = 6

/** A query as searched and cached: lower case, letters and digits only, at most 12 words; null when nothing is left. */
export function normalizeQuery(text: string | null | undefined): string | null {
  // accents dropped; the words are the runs of letters and digits
  const folded = String(text ?? "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
  const words = (folded.match(/[a-z0-9]+/g) ?? []).slice(0, MAX_WORDS)
  const q = words.join(" ").slice(0, MAX_CHARS).trim()
  return q || null
}

/** The first sentence of a description, HTML tags dropped. */
export function firstSentence(text: string | null | undefined): string {
  const plain = String(text ?? "").replace(/<[^>]*>/g, " ")
  return plain.split(/[.!?\n]/).find((s) => s.trim()) ?? ""
}

/** One entry per distinct normalized query, in the order of the fields. */
export function productEvidence(p: ProductListing): Evidence[] {
  const raw: [EvidenceSource, string | null | undefined][] = [
    ["title", p.title],
    ["type", p.type],
    ...(p.categories ?? []).map((path): [EvidenceSource, string] => ["category", path.join(" ")]),
    ["subtitle", p.subtitle],
    ["description", firstSentence(p.description)],
    ["collection", p.collection],
    ["tags", (p.tags ?? []).slice(0, MAX_TAGS).join(" ")],
  ]
  const out = new Map<string, Evidence>()
  for (const [source, text] of raw) {
    const query = normalizeQuery(text)
    if (!query) continue
    const e = out.get(query)
    if (e) {
      e.weight += WEIGHTS[source]
      if (!e.sources.includes(source)) e.sources.push(source)
    } else out.set(query, { query, weight: WEIGHTS[source], sources: [source] })
  }
  return [...out.values()]
}
