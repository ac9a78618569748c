/** A filed line as the order widget reads its rates (fractions: 0.08875). */
export interface RateLine {
  /** the order's line item id, or `shipping:<shipping method id>` */
  itemId?: string
  kind: "item" | "shipping"
  chargedRate: number
  serviceRate?: number | null
}

/** One rate Medusa shows and the service's rate behind it, where the two differ (percent strings). */
export interface RatePair {
  medusa: string
  service: string
  lines: number
  /** the lines' ids, in the record's order (the widget names them) */
  itemIds: string[]
}

const pct = (fraction: number, places: number) => `${Number((fraction * 100).toFixed(places))} %`

/**
 * Pure: where the rate Medusa shows on a line (back-solved so that its tax is the service's amount
 * to the cent) differs from the service's own rate, each distinct pair once with the lines it
 * covers. Lines without the service's rate (older records) and lines where the two agree are left
 * out: an empty list means Medusa shows the service's rates.
 */
export function ratePairs(lines: readonly RateLine[]): RatePair[] {
  const out = new Map<string, RatePair>()
  for (const l of lines) {
    if (typeof l.serviceRate !== "number") continue
    const medusa = pct(l.chargedRate, 2)
    const service = pct(l.serviceRate, 4)
    if (Math.abs(l.chargedRate - l.serviceRate) < 0.000005) continue
    const key = `${medusa}|${service}`
    const p = out.get(key)
    const ids = l.itemId ? [l.itemId] : []
    if (p) {
      p.lines++
      p.itemIds.push(...ids)
    } else out.set(key, { medusa, service, lines: 1, itemIds: ids })
  }
  return [...out.values()]
}
