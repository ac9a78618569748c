// Economic nexus, Medusa side: the store's US sales per state, the registrations (admin and options),
// the exposure, and the daily warnings.
import { randomUUID } from "node:crypto"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "../medusa/keys"
import { SALES_TAX_MODULE } from "../constants"
import { getPluginOptions } from "../options"
import { normalizeUsState, zipPrefixState } from "../service/address/us-address"
import { orderSalesByProvince } from "../medusa/order-sales-by-state"
import { dec } from "../../packages/contract/src/money"
import { computeExposure, dueWarnings, warningKey, type NexusWarning, type SalesByState, type WindowSales } from "./exposure"
import { distinctWindows, windowsFor } from "./periods"
import { nexusRules, THRESHOLDS_AS_OF } from "./thresholds"

interface NexusStateRow {
  id: string
  state: string
  registered: boolean
  warnings_given: string[] | null
}
interface NexusStore {
  listNexusStates(filter?: Record<string, unknown>, config?: Record<string, unknown>): Promise<NexusStateRow[]>
  createNexusStates(data: Partial<NexusStateRow>[]): Promise<NexusStateRow[]>
  updateNexusStates(data: Partial<NexusStateRow> & { id: string }): Promise<NexusStateRow>
}
const store = (c: MedusaContainer) => c.resolve<NexusStore>(SALES_TAX_MODULE)

export type NexusReport = Awaited<ReturnType<typeof nexusReport>>

/** An order's state: its ZIP's, none for a territory or APO/FPO ZIP, the typed state only when the ZIP names nothing. */
export function stateOf(province: string, zip3: string, known: ReadonlySet<string>): string | null {
  const byZip = /^\d{3}$/.test(zip3) ? zipPrefixState(`${zip3}00`) : null
  if (byZip) return known.has(byZip) ? byZip : null
  const typed = normalizeUsState(province)
  return typed && known.has(typed) ? typed : null
}

export async function registeredStates(container: MedusaContainer): Promise<Set<string>> {
  const rows = await store(container).listNexusStates({ registered: true }, { select: ["state"], take: null })
  return new Set([...getPluginOptions(container).nexus.registered, ...rows.map((r) => r.state)])
}

export async function nexusReport(container: MedusaContainer, today = new Date()) {
  const opts = getPluginOptions(container)
  const rules = nexusRules(opts.nexus.thresholds)
  const known = new Set(rules.map((r) => r.state))
  const windows = distinctWindows(new Set(rules.map((r) => r.period)), today)
  const [byProvince, registered] = await Promise.all([orderSalesByProvince(container, windows), registeredStates(container)])
  const sales: SalesByState = new Map()
  const years = windowsFor("previous_or_current_year", today)
  // US orders counted in no state, per year window: their state is unknown, or they are not in USD
  const unresolved = new Map<string, Sum>()
  const notUsd = new Map<string, Map<string, Sum>>()
  for (const row of byProvince) {
    const state = row.currency === "usd" ? stateOf(row.province, row.zip3, known) : null
    if (state) {
      const per = sales.get(state) ?? new Map<string, WindowSales>()
      for (const [key, s] of Object.entries(row.windows)) {
        const p = per.get(key) ?? { sales: "0", returned: "0", transactions: 0 }
        const [sold, returned] = [dec(p.sales).plus(s.sales).toString(), dec(p.returned).plus(s.returned).toString()]
        per.set(key, { sales: sold, returned, transactions: p.transactions + s.transactions })
      }
      sales.set(state, per)
      continue
    }
    for (const w of years) {
      const s = row.windows[w.key]
      if (s && row.currency === "usd") add(unresolved, w.key, s)
      else if (s?.transactions) add(notUsd.get(w.key) ?? notUsd.set(w.key, new Map()).get(w.key)!, row.currency, s)
    }
  }
  const total = (s: Sum | undefined) => ({ sales: (s?.sales ?? dec(0)).toFixed(2), transactions: s?.transactions ?? 0 })
  return {
    asOf: THRESHOLDS_AS_OF,
    today: today.toISOString().slice(0, 10),
    rows: computeExposure(rules, sales, registered, today),
    unresolved: years.map((w) => ({ window: w, ...total(unresolved.get(w.key)) })),
    notUsd: years.map((w) => ({
      window: w,
      byCurrency: [...(notUsd.get(w.key) ?? [])]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([currency, v]) => ({ currency: currency.toUpperCase() || "(none)", ...total(v) })),
    })),
  }
}

type Sum = { sales: ReturnType<typeof dec>; transactions: number }
function add(sums: Map<string, Sum>, key: string, s: { sales: string; transactions: number }) {
  const got = sums.get(key)
  sums.set(key, { sales: (got?.sales ?? dec(0)).plus(s.sales), transactions: (got?.transactions ?? 0) + s.transactions })
}

export async function setRegistered(container: MedusaContainer, state: string, registered: boolean): Promise<void> {
  const s = store(container)
  const [row] = await s.listNexusStates({ state }, { take: 1 })
  await saveState(s, state, () => ({ registered }), row)
}

/** `patch` written on the state's row (`known`, else a new one, else the row a concurrent request created). */
async function saveState(s: NexusStore, state: string, patch: (row?: NexusStateRow) => Partial<NexusStateRow>, known?: NexusStateRow) {
  let row = known
  if (!row) {
    try {
      const [created] = await s.createNexusStates([{ state, registered: false, warnings_given: [], ...patch(undefined) }])
      return created
    } catch (e) {
      // the unique index refused it (not matched on Medusa's wording): the row is there now
      ;[row] = await s.listNexusStates({ state }, { take: 1 })
      if (!row) throw e
    }
  }
  return s.updateNexusStates({ id: row.id, ...patch(row) })
}

/** Logs and records each warning not given before. */
export async function logNexusWarnings(container: MedusaContainer, today = new Date()): Promise<NexusWarning[]> {
  if (!getPluginOptions(container).nexus.warnings) return []
  const report = await nexusReport(container, today)
  const s = store(container)
  const rows = await s.listNexusStates({}, { take: null })
  const byState = new Map(rows.map((r) => [r.state, r]))
  const given = new Set(rows.flatMap((r) => r.warnings_given ?? []))
  const due = dueWarnings(report.rows, given)
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  for (const w of due) {
    logger.warn(w.message)
    const key = warningKey(w.state, w.level, w.period)
    const withKey = (row?: NexusStateRow) => ({ warnings_given: [...new Set([...(row?.warnings_given ?? []), key])] })
    byState.set(w.state, await saveState(s, w.state, withKey, byState.get(w.state)))
  }
  return due
}

/** The daily job: one instance (the slot lock) logs the warnings. */
export async function dailyNexusWarnings(container: MedusaContainer): Promise<void> {
  try {
    await container.resolve(Modules.LOCKING).acquire("sales-tax-nexus-slot", { ownerId: `nexus-${randomUUID()}`, expire: 3600 })
  } catch {
    return // another instance runs today's check
  }
  await logNexusWarnings(container)
}
