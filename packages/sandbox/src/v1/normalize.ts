/**
 * Input normalization for the legacy v1 routes: the service's real v1 clients send keys in any
 * letter case, form-encoded bodies with bracket notation, and numbers/booleans as strings. These
 * helpers turn any of that into one plain shape (lower-case keys, nested objects and arrays)
 * before the zod schemas of ./schemas.ts validate it.
 */

/** Keys never copied (prototype pollution). */
const FORBIDDEN = new Set(["__proto__", "constructor", "prototype"])

/** A plain object without a prototype (so that no key can reach Object.prototype). */
export type Bag = Record<string, unknown>
export const bag = (): Bag => Object.create(null) as Bag

/** Largest nesting accepted; deeper input is cut (left as is) — the schemas then reject it. */
const MAX_DEPTH = 32

/**
 * Recursively lower-cases every object key (values unchanged). When two keys differ only by case
 * the later one wins. Arrays keep their order. Forbidden keys are dropped.
 */
export function lowerKeys(v: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return undefined
  if (Array.isArray(v)) return v.map((x) => lowerKeys(x, depth + 1))
  if (v !== null && typeof v === "object") {
    const out = bag()
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const lk = k.toLowerCase()
      if (FORBIDDEN.has(lk)) continue
      out[lk] = lowerKeys(x, depth + 1)
    }
    return out
  }
  return v
}

/** Splits a form key into its path: `cartItems[0][Price]` / `origin.City` / `a[]` → segments ("" = push). */
export function splitFormKey(key: string): string[] {
  const segs: string[] = []
  const m = /^([^[.]*)(.*)$/.exec(key)!
  segs.push(m[1]!)
  let rest = m[2]!
  while (rest.length) {
    const b = /^\[([^\]]*)\]/.exec(rest)
    if (b) {
      segs.push(b[1]!)
      rest = rest.slice(b[0].length)
      continue
    }
    const d = /^\.([^[.]*)/.exec(rest)
    if (d) {
      segs.push(d[1]!)
      rest = rest.slice(d[0].length)
      continue
    }
    // unbalanced bracket: keep the remainder literally on the last segment
    segs[segs.length - 1] += rest
    rest = ""
  }
  return segs
}

/**
 * Builds nested objects from flat form pairs (bracket and dot notation), e.g.
 * `cartItems[0][Price]=10&origin.City=Seattle`. Objects whose keys are all array indices become
 * arrays (in index order); `a[]=1&a[]=2` pushes; a repeated plain key becomes an array; a pair
 * with an empty bracket followed by more segments (`a[][b]=1`) is dropped (see below).
 */
export function expandForm(pairs: Iterable<[string, string]>): Bag {
  const root = bag()
  let count = 0
  for (const [rawKey, value] of pairs) {
    if (++count > 10_000) break
    const segs = splitFormKey(rawKey).slice(0, MAX_DEPTH)
    if (segs.some((s) => FORBIDDEN.has(s.toLowerCase()))) continue
    // `cartItems[][Index]=0&cartItems[][ItemID]=1`: an empty bracket before more segments does not
    // say which element a field belongs to. The real service did not read such pairs as items (a
    // Returned sent so was a whole-order return): they are dropped. `a[]=1&a[]=2` (empty bracket
    // last) still lists scalars.
    if (segs.slice(1, -1).includes("")) continue
    let cur: Bag = root
    for (let i = 0; i < segs.length; i++) {
      let seg = segs[i]!
      const last = i === segs.length - 1
      if (seg === "") seg = String(Object.keys(cur).length) // "[]" pushes
      if (last) {
        const prev = cur[seg]
        if (prev === undefined) cur[seg] = value
        else if (Array.isArray(prev)) prev.push(value)
        else if (typeof prev === "string") cur[seg] = [prev, value]
        // an object already there (a[b]=1 then a=2): keep the object
      } else {
        const next = cur[seg]
        if (next !== null && typeof next === "object" && !Array.isArray(next)) cur = next as Bag
        else {
          const created = bag()
          cur[seg] = created
          cur = created
        }
      }
    }
  }
  return arraysFromIndexObjects(root) as Bag
}

/** Objects whose keys are all non-negative integers → arrays, recursively. */
function arraysFromIndexObjects(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(arraysFromIndexObjects)
  if (v !== null && typeof v === "object") {
    const keys = Object.keys(v)
    const o = v as Bag
    if (keys.length > 0 && keys.every((k) => /^(0|[1-9]\d{0,5})$/.test(k))) {
      return keys
        .map(Number)
        .sort((a, b) => a - b)
        .map((k) => arraysFromIndexObjects(o[String(k)]))
    }
    const out = bag()
    for (const k of keys) out[k] = arraysFromIndexObjects(o[k])
    return out
  }
  return v
}

/** Parses an application/x-www-form-urlencoded body into nested objects (see expandForm). */
export function parseFormBody(text: string): Bag {
  const params = new URLSearchParams(text)
  return expandForm(params.entries())
}

/** True when a text looks like a form body (k=v pairs) rather than JSON or XML. */
export function looksLikeForm(text: string): boolean {
  const t = text.trim()
  return t.length > 0 && !/^[[{<"]/.test(t) && /^[^=&\s]+=/.test(t)
}

/** The value of a query-string parameter whatever the case of its name (first one wins). */
export function queryParam(query: unknown, name: string): string | undefined {
  if (!query || typeof query !== "object") return undefined
  const want = name.toLowerCase()
  for (const [k, v] of Object.entries(query as Record<string, unknown>)) {
    if (k.toLowerCase() !== want) continue
    const first = Array.isArray(v) ? v[0] : v
    if (typeof first === "string") return first
  }
  return undefined
}
