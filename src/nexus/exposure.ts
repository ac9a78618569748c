// Pure: economic nexus exposure: per state, the store's sales over its measurement period against
// its threshold, the share reached, and whether the merchant is registered there.
import { dec } from "../../packages/contract/src/money"
import { warningPeriod, windowsFor } from "./periods"
import type { NexusRule } from "./thresholds"

/** One state's window, USD decimal strings: sales before tax (items after discounts, plus shipping), returned, orders. */
export type WindowSales = { sales: string; returned: string; transactions: number }

export type SalesByState = Map<string, Map<string, WindowSales>>

export type ExposureStatus = "registered" | "over" | "near" | "below" | "no_sales_tax"

export type ExposureRow = ReturnType<typeof computeExposure>[number]

const NONE: WindowSales = { sales: "0", returned: "0", transactions: 0 }

/** The share of one window: the larger of the two tests ("or"), or the smaller ("and"). */
export function windowShare(rule: NexusRule, s: WindowSales): { share: number; sales: string } {
  const counted = rule.netsReturns ? dec(s.sales).minus(s.returned) : dec(s.sales)
  const parts: number[] = []
  if (rule.sales !== null) parts.push(counted.div(rule.sales).toNumber())
  if (rule.transactions !== null) parts.push(s.transactions / rule.transactions)
  const share = parts.length === 0 ? 0 : rule.combine === "and" ? Math.min(...parts) : Math.max(...parts)
  return { share: Math.max(0, Math.round(share * 10_000) / 10_000), sales: counted.toFixed(2) }
}

function status(rule: NexusRule, share: number, registered: boolean): ExposureStatus {
  if (rule.sales === null && rule.transactions === null) return "no_sales_tax"
  if (registered) return "registered"
  if (share >= 1) return "over"
  if (share >= 0.8) return "near"
  return "below"
}

const RANK: Record<ExposureStatus, number> = { over: 0, near: 1, below: 2, registered: 3, no_sales_tax: 4 }

/** One row per rule: over, near (80 %), below by share, registered, no sales tax. */
export function computeExposure(rules: readonly NexusRule[], sales: SalesByState, registered: ReadonlySet<string>, today: Date) {
  const rows = rules.map((rule) => {
    const { state, name, source, ...threshold } = rule
    // the window with the highest share decides
    const best = windowsFor(rule.period, today)
      .map((window) => {
        const s = sales.get(state)?.get(window.key) ?? NONE
        return { window, ...windowShare(rule, s), transactions: s.transactions }
      })
      .reduce((a, b) => (b.share > a.share ? b : a))
    const { window, share, sales: counted, transactions } = best
    const isRegistered = registered.has(state)
    return {
      state,
      name,
      threshold,
      source,
      window,
      /** net of returns where the state nets them */
      sales: counted,
      transactions,
      /** of the threshold: 1 = crossed */
      share,
      registered: isRegistered,
      status: status(rule, share, isRegistered),
      warningPeriod: warningPeriod(window, today),
    }
  })
  return rows.sort((a, b) => RANK[a.status] - RANK[b.status] || b.share - a.share || a.state.localeCompare(b.state))
}

export type WarningLevel = 80 | 100

export type NexusWarning = ReturnType<typeof dueWarnings>[number]

/** The warnings to log now, once per state, level and period; `given`: the warningKeys given before. */
export function dueWarnings(rows: readonly ExposureRow[], given: ReadonlySet<string>) {
  return rows.flatMap((r) => {
    const level: WarningLevel = r.status === "over" ? 100 : 80
    if ((r.status !== "over" && r.status !== "near") || given.has(warningKey(r.state, level, r.warningPeriod))) return []
    const pct = Math.floor(r.share * 100)
    const what =
      level === 100 ? `has passed its economic nexus threshold (${pct} %)` : `has reached ${pct} % of its economic nexus threshold`
    return {
      state: r.state,
      level,
      period: r.warningPeriod,
      message: `sales-tax nexus: ${r.name} (${r.state}) ${what} in ${r.window.label}: sales $${r.sales}, ${r.transactions} order${r.transactions === 1 ? "" : "s"}; the store is not marked as registered there (Settings → Sales Tax → Nexus)`,
    }
  })
}

export const warningKey = (state: string, level: WarningLevel, period: string) => `${state}:${level}:${period}`
