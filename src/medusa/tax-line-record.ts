/**
 * BOUNDARY: a tax line's record (its `data`) also travels in its `rate_id`, which Medusa keeps as
 * `tax_rate_id` from cart to order on every minor, where it drops `data` on older ones; readers take
 * `tax_rate_id` first, else `data`. Assumes: RECORD_CARRIERS; the column is text (the cart's is btree
 * indexed: RECORD_MAX). Contract test: tax-line-record.test.ts. Boot check: boot-check.ts.
 */
import { installedSource } from "./installed"
import { runtimeSlot } from "../runtime"

/** Marks a `tax_rate_id` as this plugin's record (never a Tax Module rate id). */
export const RECORD_PREFIX = "sales_tax:"

/** The longest record kept: well under a btree index entry. */
export const RECORD_MAX = 2000

type Data = Record<string, unknown>

/** `"key":` of each key written (a handful). */
const keyJsons = runtimeSlot("recordKeyJsons", () => new Map<string, string>())
function keyJson(memo: Map<string, string>, k: string): string {
  let j = memo.get(k)
  if (j === undefined) {
    j = `${JSON.stringify(k)}:`
    if (memo.size < 256) memo.set(k, j)
  }
  return j
}

/**
 * Pure: `data` as a `rate_id` (JSON, nulls left out), undefined when none or too long; `written`: one answer's values' JSON,
 * so it lives for one set of lines, never across changes to them (it would write stale records).
 */
export function recordRateId(data: Data | null | undefined, written?: Map<unknown, string>): string | undefined {
  if (!data) return undefined
  const keys = keyJsons()
  let body = ""
  for (const k of Object.keys(data)) {
    const v = data[k]
    if (v === null || v === undefined) continue
    let json: string | undefined
    if (typeof v === "number" && Number.isFinite(v)) json = String(v)
    else if ((json = written?.get(v)) === undefined) {
      json = JSON.stringify(v)
      written?.set(v, json)
    }
    // a function or symbol: JSON.stringify leaves the key out
    if (json !== undefined) body += `${body ? "," : "{"}${keyJson(keys, k)}${json}`
  }
  const id = `${RECORD_PREFIX}${body || "{"}}`
  return id.length <= RECORD_MAX ? id : undefined
}

/** Pure: the record of a tax line as read from Medusa: its `tax_rate_id` when the plugin's, else its `data`. */
export function recordedData(t: { tax_rate_id?: unknown; data?: unknown } | null | undefined): Data | null {
  const ref = t?.tax_rate_id
  if (typeof ref === "string" && ref.startsWith(RECORD_PREFIX)) {
    try {
      const parsed: unknown = JSON.parse(ref.slice(RECORD_PREFIX.length))
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Data
    } catch {
      /* not a record: the data column's */
    }
  }
  return t?.data && typeof t.data === "object" ? (t.data as Data) : null
}

/** Sets each tax line's `data` to its recordedData, in place. */
export function withRecordedData<L extends { tax_lines?: ({ tax_rate_id?: unknown; data?: unknown } | null)[] | null }>(
  lines: readonly L[] | null | undefined,
): void {
  for (const l of lines ?? []) for (const t of l.tax_lines ?? []) if (t) t.data = recordedData(t)
}

/** The Query fields a reader of the record asks for, per relation (`items`, `shipping_methods`). */
export const recordFields = (relation: string): string[] => [`${relation}.tax_lines.tax_rate_id`, `${relation}.tax_lines.data`]

/** The core-flows files that carry `rate_id` to the cart's and the order's `tax_rate_id`. */
export const RECORD_CARRIERS = [
  { file: "cart/steps/set-tax-lines-for-items.js", carries: "tax_rate_id: taxLine.rate_id" },
  { file: "cart/steps/upsert-tax-lines-for-items.js", carries: "tax_rate_id: taxLine.rate_id", optional: true },
  { file: "order/steps/set-tax-lines-for-items.js", carries: "tax_rate_id: taxLine.rate_id" },
  { file: "cart/utils/prepare-line-item-data.js", carries: "tax_rate_id: d.tax_rate_id" },
] as const

/** What the installed core-flows does not carry (empty: the record reaches the order). */
export function recordCarrierDifferences(
  source: (rel: string) => string | undefined = (rel) => installedSource("@medusajs/core-flows", rel),
): string[] {
  return RECORD_CARRIERS.flatMap((c) => {
    const text = source(c.file)
    if (text === undefined) return "optional" in c ? [] : [`@medusajs/core-flows ${c.file} is missing`]
    return text.includes(c.carries) ? [] : [`@medusajs/core-flows ${c.file} does not write ${c.carries}`]
  })
}
