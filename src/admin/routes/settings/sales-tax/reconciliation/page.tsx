import { defineRouteConfig } from "@medusajs/admin-sdk"
import { Container, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { api, downloadFile, post } from "../../../../lib/api"
import { useApi, useBusy, useJob, useLoad, useSubmit } from "../../../../lib/hooks"
import type { DifferenceReason } from "../../../../../filing/reconciliation/compute"
import type { reportView, rowView } from "../../../../../filing/reconciliation/views"
import type { BackfillJob } from "../../../../../filing/backfill/jobs"
import { Btn, DataTable, ErrorText, Figure, Field, NavLink, Note, Page, Progress, Section, Strong, Tag } from "../../../../components/ui"

type MonthView = ReturnType<typeof reportView>
type RowView = ReturnType<typeof rowView>

const REASON: Record<DifferenceReason, [label: string, color: "red" | "orange"]> = {
  not_filed: ["Not filed", "red"],
  failed: ["Failed", "red"],
  pending: ["Pending", "orange"],
  refund_not_filed: ["Refund not filed", "orange"],
  amount_mismatch: ["Amount differs", "orange"],
  needs_attention: ["Needs attention", "red"],
  requoted: ["Re-quoted (owed)", "orange"],
}

/** The summary's figures: label, field, test id. */
const FIGURES: [string, keyof MonthView["summary"], string][] = [
  ["Orders", "orders", "recon-orders"],
  ["Tax charged", "charged", "recon-charged"],
  ["Tax filed", "filed", "recon-filed"],
  ["Refunded to customers", "refunded_to_customers", "recon-refunded-customers"],
  ["Refunded at the service", "refunded_at_service", "recon-refunded-service"],
  ["Difference (net charged − net filed)", "difference", "recon-difference"],
]

const orderName = (r: { order_id: string; display_id: number | null }) => (r.display_id ? `#${r.display_id}` : r.order_id)

/** A line of US orders listed apart and its orders, each linked to the order, whose Sales Tax widget has the fix. */
function AttentionLine({ testId, text, rows }: { testId: string; text: string; rows: MonthView["not_usd"]["rows"] }) {
  return (
    <div className="flex flex-col gap-y-2 px-6 py-4" data-testid={testId}>
      <Text size="small" weight="plus" data-testid={`${testId}-text`}>
        {text}
      </Text>
      {rows.length ? (
        <ul className="flex flex-col gap-y-1">
          {rows.map((r) => (
            <li key={r.order_id} className="flex flex-wrap items-center gap-x-2" data-testid={`${testId}-${r.order_id}`}>
              <NavLink to={`/orders/${r.order_id}`}>{orderName(r)}</NavLink>
              <Note>{`sales ${r.currency_code} ${r.sales}`}</Note>
              <Tag color={r.filing_state === "needs_attention" ? "red" : "grey"}>{r.filing_state}</Tag>
              <Note tone="subtle" className="break-words">
                {r.detail}
              </Note>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

const eta = (s: number | null) => (s === null ? "—" : s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`)

/** Files the orders of a date range that have no filing record; polls the job's progress. */
function BackfillPanel({ onDone }: { onDone: () => void }) {
  const today = new Date().toISOString().slice(0, 10)
  const [range, setRange] = useState({ from: today, to: today })
  const path = "/admin/sales-tax/reconciliation/backfill"
  const { job, setJob, start } = useJob<BackfillJob>(path, "backfill", 1000, onDone)
  const { busy, errors, submit } = useSubmit()

  // a backfill already running (or the last one) shows on arrival
  useLoad(() => api<{ backfill: BackfillJob | null }>(path).then((r) => setJob(r.backfill)), [])

  const begin = () => submit(async () => start((await post<{ backfill: BackfillJob }>(path, range)).backfill))

  const p = job?.progress
  return (
    <Section
      testId="backfill"
      title="Backfill past orders"
      subtitle="Files the orders placed in the range that have no filing record: each with the date it was completed and the tax that was charged, its returns as refunds. Safe to run again: what is filed is skipped."
    >
      <div className="flex flex-wrap items-end gap-4 px-6 py-4">
        {(["from", "to"] as const).map((k) => (
          <Field
            key={k}
            id={`backfill-${k}`}
            label={k === "from" ? "From" : "To (included)"}
            type="date"
            value={range[k]}
            onChange={(v) => setRange((r) => ({ ...r, [k]: v }))}
            error={errors[k]}
            errorTestId={`backfill-${k}-error`}
          />
        ))}
        <Btn busy={busy} disabled={job?.status === "running"} onClick={begin} testId="backfill-start">
          Start backfill
        </Btn>
      </div>
      {job ? (
        <div className="flex flex-col gap-y-2 px-6 py-4" data-testid="backfill-progress" data-status={job.status}>
          <div className="flex items-center gap-x-2">
            <Tag color={job.status === "done" ? "green" : job.status === "failed" ? "red" : "blue"}>{job.status}</Tag>
            <Text size="small">
              {job.from} → {job.to}
            </Text>
          </div>
          <Progress done={p?.processed} total={p?.total} finished={job.status === "done"} />
          {p ? (
            <Text size="small" data-testid="backfill-figures">
              {p.processed} / {p.total} orders · {p.ordersPerSecond} orders/s · ETA {eta(p.etaSeconds)} · filed {p.filed}
              {p.alreadyAtService ? ` (${p.alreadyAtService} already at the service)` : ""} · refunds {p.refunds} · skipped {p.skipped} ·
              failed {p.failed}
            </Text>
          ) : null}
          <ErrorText error={job.error} />
          {p?.errors.map((e) => (
            <Note key={e.orderId} tone="error">
              {e.orderId}: {e.error}
            </Note>
          ))}
        </div>
      ) : null}
    </Section>
  )
}

/** Settings → Sales Tax → Reconciliation: a month's tax charged against tax filed, each difference with a fix; CSV; backfill. */
const ReconciliationPage = () => {
  const [month, setMonth] = useState(() => new Date().toISOString().slice(0, 7))
  const load = useApi<MonthView>(`/admin/sales-tax/reconciliation?month=${encodeURIComponent(month)}`)
  const { data, reload } = load
  const { busy, run } = useBusy()

  const fix = (r: RowView) =>
    run(r.order_id, async () => {
      const out = await post<{ row: RowView }>("/admin/sales-tax/reconciliation/fix", { order_id: r.order_id })
      if (out.row.reason) toast.error(`Order #${r.display_id ?? r.order_id}: ${out.row.detail ?? out.row.reason}`)
      else toast.success(`Order #${r.display_id ?? r.order_id} is in line: filed ${out.row.filed}`)
      await reload()
    })
  const csv = () =>
    downloadFile(`/admin/sales-tax/reconciliation/csv?month=${encodeURIComponent(month)}`, `sales-tax-reconciliation-${month}.csv`)

  return (
    <Page
      testId="sales-tax-reconciliation"
      title="Sales Tax reconciliation"
      load={load}
      refreshTestId="recon-refresh"
      subtitle="Orders placed in the month (UTC): tax charged and refunded in Medusa against tax filed and refunded at the Sales Tax Service."
      actions={
        <>
          <Field id="recon-month" label="Month" type="month" value={month} onChange={(v) => v && setMonth(v)} />
          <Btn busy={busy === "csv"} onClick={() => run("csv", csv)} testId="recon-csv">
            Export CSV
          </Btn>
        </>
      }
    >
      {data ? (
        <>
          <Container className="flex flex-wrap gap-3 px-6 py-4" data-testid="recon-summary">
            {FIGURES.map(([label, key, testId]) => (
              <Figure
                key={key}
                label={label}
                value={data.summary[key]}
                testId={testId}
                tone={key === "difference" && data.summary.difference !== "0.00" ? "error" : undefined}
              />
            ))}
          </Container>
          <Container className="divide-y p-0" data-testid="recon-attention">
            <AttentionLine testId="recon-us-without-tax" text={data.us_without_tax.text} rows={data.us_without_tax.rows} />
            <AttentionLine testId="recon-not-usd" text={data.not_usd.text} rows={data.not_usd.rows} />
          </Container>
          <Section testId="recon-differences" title={`Differences (${data.differences_count})`}>
            <DataTable
              empty="Every order of the month is filed as charged."
              emptyTestId="recon-none"
              headers={["Order", "Placed", "Charged", "Filed", "Refunded (customer / service)", "Difference", "Reason", ""]}
              rows={data.differences}
              rowKey={(r) => r.order_id}
              rowTestId={(r) => `recon-row-${r.order_id}`}
              cells={(r) => [
                <NavLink to={`/orders/${r.order_id}`}>{orderName(r)}</NavLink>,
                <Note>{new Date(r.created_at).toLocaleString()}</Note>,
                r.charged,
                r.filed,
                `${r.refunded_to_customer} / ${r.refunded_at_service}`,
                <Strong>{r.difference}</Strong>,
                <div className="flex flex-col gap-y-1" style={{ maxWidth: 320 }}>
                  {r.reason ? <Tag color={REASON[r.reason][1]}>{REASON[r.reason][0]}</Tag> : null}
                  <Note tone="subtle" className="break-words">
                    {r.detail}
                  </Note>
                </div>,
                <Btn busy={busy === r.order_id} onClick={() => fix(r)} testId={`recon-fix-${r.order_id}`}>
                  Fix
                </Btn>,
              ]}
            />
            <Note tone="muted" className="px-6 py-2">
              {data.truncated && `Showing the largest ${data.differences.length}; the CSV has every order.`}
            </Note>
          </Section>
        </>
      ) : null}
      <BackfillPanel onDone={() => void reload()} />
    </Page>
  )
}

export const config = defineRouteConfig({ label: "Sales Tax Reconciliation" })
export default ReconciliationPage
