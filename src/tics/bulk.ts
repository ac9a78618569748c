// Bulk TICs, pure part: the products' export CSV, and an import CSV setting TICs on products, types
// or categories by id or handle, planned as changes, unchanged and refused lines. Medusa side: ./medusa.ts.
import { createHash } from "node:crypto"
import { parse } from "csv-parse/sync"
import { csvField } from "../core/csv"
import type { MovedTic } from "../modules/sales-tax/service"
import type { TicTargetType } from "../service/tics/product-tics"

/** A file past a limit is refused whole. `tics`: each is a paid search, kept within the lookup cache. */
export const IMPORT_LIMITS = { bytes: 8 * 1024 * 1024, rows: 50_000, cell: 500, tics: 1_000 } as const

export const EXPORT_COLUMNS = ["id", "handle", "title", "product_type", "categories", "tic", "resolved_tic", "resolved_from"] as const

/** A product's line by column: `categories` their handles (else ids) joined with |, `tic` the one set on the product itself. */
export type ExportProduct = Record<(typeof EXPORT_COLUMNS)[number], string | number | null>

/** CRLF line ends, formula-looking cells defused. */
export function exportCsv(products: readonly ExportProduct[]): string {
  const lines = products.map((p) => EXPORT_COLUMNS.map((c) => csvField(p[c])).join(","))
  return [EXPORT_COLUMNS.join(","), ...lines].join("\r\n") + "\r\n"
}

export interface ImportRow {
  /** the line in the file (the header is line 1) */
  row: number
  target: TicTargetType
  /** an id, or when `by` is "handle" a handle (a type's value) */
  ref: string
  by: "id" | "handle"
  /** null: clear the target's TIC */
  tic: number | null
}

export interface Refusal {
  row: number
  column: string
  reason: string
}

const ID_PREFIX: Record<TicTargetType, string> = { product: "prod_", product_type: "ptyp_", product_category: "pcat_" }
// each target by name, dashed and short; a Map: a cell such as `__proto__` is an unknown target, not an Object member
const TARGET_ALIASES = new Map(
  (Object.keys(ID_PREFIX) as TicTargetType[]).flatMap((t) =>
    [t, t.replace("_", "-"), t.replace("product_", "")].map((a) => [a, t] as const),
  ),
)

// A cell the export defused (a leading ') is read back as written before the quote
const undefuse = (s: string) => (/^'[=+\-@\t\r]/.test(s) ? s.slice(1) : s)
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

const TOO_MANY_TICS = `more than ${IMPORT_LIMITS.tics} different TICs (the service is asked about each): split the file before this line`

/** Reads an import: a header with `tic` and `id` or `handle` (`target` optional, default product); an empty `tic` clears. */
export function parseImport(text: string): { rows: ImportRow[]; refused: Refusal[] } {
  const whole = (reason: string, column = "file", row = 1) => ({ rows: [], refused: [{ row, column, reason }] })
  if (Buffer.byteLength(text, "utf8") > IMPORT_LIMITS.bytes) return whole(`the file is larger than ${IMPORT_LIMITS.bytes / 1024 / 1024} MB`)
  let records: { record: string[]; info: { lines: number } }[]
  try {
    // info: each record's line in the file (blank lines are skipped but still counted)
    records = parse(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      max_record_size: 64 * 1024,
      info: true,
      record_delimiter: ["\r\n", "\n", "\r"],
    }) as unknown as typeof records
  } catch (e) {
    return whole(`not a readable CSV file: ${(e as Error).message.split("\n")[0]}`, "file", (e as { lines?: number }).lines ?? 1)
  }
  if (records.length === 0) return whole("the file is empty")
  if (records.length - 1 > IMPORT_LIMITS.rows) return whole(`more than ${IMPORT_LIMITS.rows} lines: split the file`)
  const header = records[0]!.record.map((h) => h.toLowerCase())
  const missing: Refusal[] = []
  if (!header.includes("tic")) missing.push({ row: 1, column: "tic", reason: "the header has no tic column" })
  if (!header.includes("id") && !header.includes("handle"))
    missing.push({ row: 1, column: "id", reason: "the header has neither an id nor a handle column" })
  if (missing.length) return { rows: [], refused: missing }

  const rows: ImportRow[] = []
  const refused: Refusal[] = []
  const seen = new Map<string, number>()
  const tics = new Set<number>()
  for (const { record, info } of records.slice(1)) {
    const r = importLine(record, info.lines, header)
    const first = "ref" in r ? seen.get(`${r.target}|${r.by}|${r.ref}`) : undefined
    if (!("ref" in r)) refused.push(r)
    else if (first !== undefined)
      refused.push({ row: r.row, column: r.by, reason: `the same ${r.target.replace("_", " ")} as line ${first}` })
    else if (r.tic !== null && !tics.has(r.tic) && tics.size === IMPORT_LIMITS.tics) return whole(TOO_MANY_TICS, "tic", r.row)
    else {
      seen.set(`${r.target}|${r.by}|${r.ref}`, r.row)
      if (r.tic !== null) tics.add(r.tic)
      rows.push(r)
    }
  }
  return { rows, refused }
}

function importLine(rec: string[], row: number, header: string[]): ImportRow | Refusal {
  const cell = (name: string) => (header.includes(name) ? undefuse(rec[header.indexOf(name)] ?? "") : "")
  const bad = rec.findIndex((c) => CONTROL.test(c) || c.length > IMPORT_LIMITS.cell)
  if (bad >= 0) {
    const reason = CONTROL.test(rec[bad]!) ? "contains control characters" : `longer than ${IMPORT_LIMITS.cell} characters`
    return { row, column: header[bad] ?? `column ${bad + 1}`, reason }
  }
  const rawTarget = cell("target").toLowerCase()
  const target = rawTarget === "" ? "product" : TARGET_ALIASES.get(rawTarget)
  if (!target) return { row, column: "target", reason: `"${rawTarget}" is not product, product_type or product_category` }
  const [id, handle, rawTic] = [cell("id"), cell("handle"), cell("tic")]
  if (id && (!id.startsWith(ID_PREFIX[target]) || !/^[A-Za-z0-9_]+$/.test(id)))
    return { row, column: "id", reason: `"${id}" is not a ${target.replace("_", " ")} id (${ID_PREFIX[target]}…)` }
  if (!id && !handle) return { row, column: header.includes("id") ? "id" : "handle", reason: "neither an id nor a handle" }
  if (rawTic !== "" && !/^\d{1,9}$/.test(rawTic))
    return { row, column: "tic", reason: `"${rawTic}" is not a TIC (a whole number, or empty to clear)` }
  return { row, target, ref: id || handle, by: id ? "id" : "handle", tic: rawTic === "" ? null : Number(rawTic) }
}

export interface PlannedChange {
  row: number
  target: TicTargetType
  targetId: string
  ref: string
  from: number | null
  to: number | null
}

export type TicVerdict = "known" | "unknown" | "unverified"

/** `hash`: an apply naming it is refused when its own plan differs. */
export type ImportPlan = ReturnType<typeof planImport>

/** `targets`: `${target}|${by}|${ref}` → id; `current`: each target's TIC; `verdicts`: the service's word per TIC. */
export function planImport(
  parsed: { rows: readonly ImportRow[]; refused: readonly Refusal[] },
  targets: ReadonlyMap<string, string>,
  current: ReadonlyMap<string, number>,
  verdicts: ReadonlyMap<number, TicVerdict>,
) {
  const changes: PlannedChange[] = []
  const refused: Refusal[] = [...parsed.refused]
  const claimed = new Map<string, number>()
  let unchanged = 0
  for (const r of parsed.rows) {
    const targetId = targets.get(`${r.target}|${r.by}|${r.ref}`)
    if (!targetId) {
      refused.push({ row: r.row, column: r.by, reason: `no ${r.target.replace("_", " ")} with ${r.by} "${r.ref}"` })
      continue
    }
    const other = claimed.get(`${r.target}|${targetId}`)
    if (other !== undefined) {
      refused.push({ row: r.row, column: r.by, reason: `the same ${r.target.replace("_", " ")} as line ${other}` })
      continue
    }
    claimed.set(`${r.target}|${targetId}`, r.row)
    const verdict = r.tic === null ? "known" : verdicts.get(r.tic)
    if (verdict !== "known") {
      const reason =
        verdict === "unknown"
          ? `TIC ${r.tic} is not in the service's TIC list`
          : `the service could not be asked about TIC ${r.tic}: try again when it answers`
      refused.push({ row: r.row, column: "tic", reason })
      continue
    }
    const from = current.get(targetId) ?? null
    if (from === r.tic) unchanged++
    else changes.push({ row: r.row, target: r.target, targetId, ref: r.ref, from, to: r.tic })
  }
  refused.sort((a, b) => a.row - b.row)
  const planned = JSON.stringify([changes, unchanged, refused])
  const hash = createHash("sha256").update(planned).digest("hex")
  return { changes, unchanged, refused, hash }
}

/** The lines whose target the write found with another TIC than planned. */
export function changedSincePlan(changes: readonly PlannedChange[], moved: readonly MovedTic[]): Refusal[] {
  const now = new Map(moved.map((m) => [`${m.target_type}|${m.target_id}`, m.now]))
  return changes.flatMap((c) => {
    const key = `${c.target}|${c.targetId}`
    if (!now.has(key)) return []
    const was = (t: number | null) => (t === null ? "none" : String(t))
    return [{ row: c.row, column: "tic", reason: `not written: the TIC was ${was(c.from)} when planned and is ${was(now.get(key)!)} now` }]
  })
}
