import type { FilingLine } from "../../modules/sales-tax-filing/types"

const pct = (fraction: number, places: number) => `${Number((fraction * 100).toFixed(places))} %`

/**
 * Where the rate Medusa shows on a line (back-solved: its tax is the service's to the cent) differs from the service's own, each
 * pair once with its lines. Empty when Medusa shows the service's rates (or the records predate the service's rate).
 */
export function ratePairs(lines: readonly (Pick<FilingLine, "chargedRate" | "serviceRate"> & Partial<FilingLine>)[]) {
  const out = new Map<string, { medusa: string; service: string; lines: number; itemIds: string[] }>()
  for (const l of lines) {
    if (typeof l.serviceRate !== "number") continue
    const medusa = pct(l.chargedRate, 2)
    const service = pct(l.serviceRate, 4)
    if (Math.abs(l.chargedRate - l.serviceRate) < 0.000005) continue
    const key = `${medusa}|${service}`
    if (!out.has(key)) out.set(key, { medusa, service, lines: 0, itemIds: [] })
    const p = out.get(key)!
    p.lines++
    if (l.itemId) p.itemIds.push(l.itemId)
  }
  return [...out.values()]
}
