/** The per-order tables and the closing summary. */
import type { OrderRecord } from "../../packages/contract/src/index"
import type { Comparison, FilingView, ReconciliationView } from "./scenario"
import { bold, dim, green, line, red, table } from "./ui"

const money = (n: number | null) => (n === null ? "-" : n.toFixed(2))
const pct = (r: number | null) => (r === null ? "-" : `${(r * 100).toFixed(2).replace(/\.?0+$/, "")}%`)
const mark = (ok: boolean) => (ok ? green("OK") : red("MISMATCH"))

const PATHS: Record<string, string> = {
  cart: "filed from the checkout's cart (POST /tax/carts/orders)",
  direct: "filed as a new order with the charged tax (POST /tax/orders)",
}

export function printOrderTable(title: string, subtitle: string, cmp: Comparison, filed: OrderRecord | null, filing?: FilingView): void {
  line()
  line(bold(title))
  line(dim(subtitle))
  const rows = cmp.lines.map((l) => [
    l.title,
    String(l.quantity),
    l.unitPrice,
    l.tic === null ? "-" : String(l.tic),
    pct(l.rate),
    money(l.charged),
    money(l.filed),
    l.ok ? green("OK") : red(l.problem ?? "MISMATCH"),
  ])
  rows.push(["Total tax", "", "", "", "", money(cmp.chargedTotal), money(cmp.filedTotal), mark(cmp.chargedTotal === cmp.filedTotal)])
  for (const l of table(["Line", "Qty", "Unit price", "TIC", "Rate", "Tax charged", "Tax filed", ""], rows, new Set([1, 2, 5, 6])))
    line(`  ${l}`)
  if (filed) {
    const ex = filed.exemption?.exemptionId ? `, exemption ${filed.exemption.exemptionId}` : ""
    line(
      dim(
        `  at the service: order ${filed.orderId}${filed.cartId ? ` (cart ${filed.cartId})` : ""}, ${filed.completedDate ? "completed" : "not completed"}${ex}`,
      ),
    )
  }
  if (filing) line(dim(`  filing record: ${filing.state}, ${PATHS[filing.filing_path ?? ""] ?? `path ${filing.filing_path ?? "-"}`}`))
}

/** The month's figures (Settings → Sales Tax Reconciliation) and each order that differs. */
export function printReconciliation(r: ReconciliationView): void {
  line()
  line(bold(`Reconciliation of ${r.month} (orders placed in the month)`))
  const s = r.summary
  const rows = [
    [
      String(s.orders),
      s.charged,
      s.refunded_to_customers,
      s.filed,
      s.refunded_at_service,
      s.difference,
      mark(s.difference === "0.00" && r.differences_count === 0),
    ],
  ]
  for (const l of table(
    ["Orders", "Tax charged", "Refunded to customers", "Tax filed", "Refunded at the service", "Difference", ""],
    rows,
    new Set([0, 1, 2, 3, 4, 5]),
  ))
    line(`  ${l}`)
  for (const d of r.differences) line(red(`  order #${d.display_id ?? d.order_id}: ${d.difference} (${d.reason}: ${d.detail ?? ""})`))
}

export interface Check {
  what: string
  ok: boolean
  detail?: string
}

export function printSummary(checks: Check[], elapsedMs: number): boolean {
  line()
  line(bold("Summary"))
  for (const c of checks) line(`  ${c.ok ? green("✓") : red("✗")} ${c.what}${c.detail ? dim(` (${c.detail})`) : ""}`)
  const ok = checks.length > 0 && checks.every((c) => c.ok)
  line()
  line(
    ok
      ? green(
          bold(
            `PASS: tax charged equals tax filed for every order, and every step did what it should (${(elapsedMs / 1000).toFixed(0)} s)`,
          ),
        )
      : red(bold(`FAIL: ${checks.filter((c) => !c.ok).length} of ${checks.length} checks failed (${(elapsedMs / 1000).toFixed(0)} s)`)),
  )
  return ok
}
