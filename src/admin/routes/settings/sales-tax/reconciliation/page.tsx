import { defineRouteConfig } from "@medusajs/admin-sdk"
import { Badge, Button, Container, Heading, Input, Label, Text, toast } from "@medusajs/ui"
import { useEffect, useState } from "react"
import { api, errorMessage } from "../../../../lib/api"
import { useLoad } from "../../../../lib/use-load"
import { DataTable, ErrorText, Figure, NavLink, Page, Subtitle, useBusy } from "../../../../components/ui"
import { downloadCsv, type AttentionRowView, type BackfillJob, type MonthView, type RowView } from "./data"

const REASON: Record<string, { label: string; color: "red" | "orange" | "grey" }> = {
  not_filed: { label: "Not filed", color: "red" },
  failed: { label: "Failed", color: "red" },
  pending: { label: "Pending", color: "orange" },
  refund_not_filed: { label: "Refund not filed", color: "orange" },
  amount_mismatch: { label: "Amount differs", color: "orange" },
  needs_attention: { label: "Needs attention", color: "red" },
  requoted: { label: "Re-quoted (owed)", color: "orange" },
}

/**
 * A line of US orders listed apart (without tax, or not in USD) and its orders; each links to the order, whose Sales Tax widget has the fix (re-quote with a corrected address, then file).
 */
function AttentionLine({ testId, text, rows }: { testId: string; text: string; rows: AttentionRowView[] }) {
  return (
    <div className="flex flex-col gap-y-2 px-6 py-4" data-testid={testId}>
      <Text size="small" weight="plus" data-testid={`${testId}-text`}>
        {text}
      </Text>
      {rows.length ? (
        <ul className="flex flex-col gap-y-1">
          {rows.map((r) => (
            <li key={r.order_id} className="flex flex-wrap items-center gap-x-2" data-testid={`${testId}-${r.order_id}`}>
              <NavLink to={`/orders/${r.order_id}`}>{r.display_id ? `#${r.display_id}` : r.order_id}</NavLink>
              <Text size="xsmall">{`sales ${r.currency_code} ${r.sales}`}</Text>
              <Badge size="2xsmall" color={r.filing_state === "needs_attention" ? "red" : "grey"}>
                {r.filing_state}
              </Badge>
              {r.detail ? (
                <Text size="xsmall" className="break-words text-ui-fg-subtle">
                  {r.detail}
                </Text>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

function thisMonth(): string {
  const d = new Date()
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`
}

function eta(seconds: number | null): string {
  if (seconds === null) return "—"
  if (seconds < 60) return `${seconds} s`
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`
}

function BackfillPanel({ onDone }: { onDone: () => void }) {
  const today = new Date().toISOString().slice(0, 10)
  const [from, setFrom] = useState(today)
  const [to, setTo] = useState(today)
  const [job, setJob] = useState<BackfillJob | null>(null)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [starting, setStarting] = useState(false)

  useEffect(() => {
    void api<{ backfill: BackfillJob | null }>("/admin/sales-tax/reconciliation/backfill").then(
      (r) => setJob(r.backfill),
      () => undefined,
    )
  }, [])
  useEffect(() => {
    if (job?.status !== "running") return
    const t = setTimeout(async () => {
      try {
        const r = await api<{ backfill: BackfillJob | null }>("/admin/sales-tax/reconciliation/backfill")
        setJob(r.backfill)
        if (r.backfill?.status !== "running") onDone()
      } catch (e) {
        toast.error(errorMessage(e))
      }
    }, 1000)
    return () => clearTimeout(t)
  }, [job, onDone])

  const start = async () => {
    setStarting(true)
    setErrors({})
    try {
      const r = await api<{ backfill: BackfillJob }>("/admin/sales-tax/reconciliation/backfill", { method: "POST", body: { from, to } })
      setJob(r.backfill)
    } catch (e) {
      const fe = (e as { fieldErrors?: () => Record<string, string> }).fieldErrors?.() ?? {}
      setErrors(fe)
      if (!Object.keys(fe).length) toast.error(errorMessage(e))
    } finally {
      setStarting(false)
    }
  }

  const p = job?.progress
  const pct = p && p.total ? Math.round((p.processed / p.total) * 100) : job?.status === "done" ? 100 : 0
  return (
    <Container className="divide-y p-0" data-testid="backfill">
      <div className="px-6 py-4">
        <Heading level="h2">Backfill past orders</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          Files the orders placed in the range that have no filing record: each with the date it was completed and the tax that was charged,
          its returns as refunds. Safe to run again: what is filed is skipped.
        </Text>
      </div>
      <div className="flex flex-wrap items-end gap-4 px-6 py-4">
        <div className="flex flex-col gap-y-1">
          <Label size="small" htmlFor="backfill-from">
            From
          </Label>
          <Input
            id="backfill-from"
            type="date"
            size="small"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            data-testid="backfill-from"
          />
          {errors.from ? (
            <Text size="xsmall" className="text-ui-fg-error">
              {errors.from}
            </Text>
          ) : null}
        </div>
        <div className="flex flex-col gap-y-1">
          <Label size="small" htmlFor="backfill-to">
            To (included)
          </Label>
          <Input id="backfill-to" type="date" size="small" value={to} onChange={(e) => setTo(e.target.value)} data-testid="backfill-to" />
          {errors.to ? (
            <Text size="xsmall" className="text-ui-fg-error" data-testid="backfill-to-error">
              {errors.to}
            </Text>
          ) : null}
        </div>
        <Button
          size="small"
          variant="secondary"
          isLoading={starting}
          disabled={job?.status === "running"}
          onClick={start}
          data-testid="backfill-start"
        >
          Start backfill
        </Button>
      </div>
      {job ? (
        <div className="flex flex-col gap-y-2 px-6 py-4" data-testid="backfill-progress" data-status={job.status}>
          <div className="flex items-center gap-x-2">
            <Badge size="2xsmall" color={job.status === "done" ? "green" : job.status === "failed" ? "red" : "blue"}>
              {job.status}
            </Badge>
            <Text size="small">
              {job.from} → {job.to}
            </Text>
          </div>
          <div
            className="h-2 w-full overflow-hidden rounded-full bg-ui-bg-subtle"
            role="progressbar"
            aria-valuenow={pct}
            aria-valuemin={0}
            aria-valuemax={100}
          >
            <div className="h-2 rounded-full bg-ui-fg-interactive" style={{ width: `${pct}%` }} />
          </div>
          {p ? (
            <Text size="small" data-testid="backfill-figures">
              {p.processed} / {p.total} orders · {p.ordersPerSecond} orders/s · ETA {eta(p.etaSeconds)} · filed {p.filed}
              {p.alreadyAtService ? ` (${p.alreadyAtService} already at the service)` : ""} · refunds {p.refunds} · skipped {p.skipped} ·
              failed {p.failed}
            </Text>
          ) : null}
          <ErrorText error={job.error} />
          {p?.errors.length ? (
            <ul className="flex flex-col gap-y-1">
              {p.errors.map((e) => (
                <li key={e.orderId}>
                  <Text size="xsmall" className="text-ui-fg-error">
                    {e.orderId}: {e.error}
                  </Text>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </Container>
  )
}

/** Settings → Sales Tax → Reconciliation: a month's tax charged against tax filed, each difference with a fix; CSV; backfill. */
const ReconciliationPage = () => {
  const [month, setMonth] = useState(thisMonth())
  const { data, error, loading, reload } = useLoad(
    () => api<MonthView>(`/admin/sales-tax/reconciliation?month=${encodeURIComponent(month)}`),
    [month],
  )
  const { busy, run } = useBusy()

  const fix = (r: RowView) =>
    run(r.order_id, async () => {
      const out = await api<{ row: RowView }>("/admin/sales-tax/reconciliation/fix", { method: "POST", body: { order_id: r.order_id } })
      if (out.row.reason) toast.error(`Order #${r.display_id ?? r.order_id}: ${out.row.detail ?? out.row.reason}`)
      else toast.success(`Order #${r.display_id ?? r.order_id} is in line: filed ${out.row.filed}`)
      await reload()
    })

  return (
    <Page
      testId="sales-tax-reconciliation"
      title="Sales Tax reconciliation"
      error={error}
      subtitle={
        <Subtitle>
          Orders placed in the month (UTC): tax charged and refunded in Medusa against tax filed and refunded at the Sales Tax Service.
        </Subtitle>
      }
      actions={
        <>
          <div className="flex flex-col gap-y-1">
            <Label size="small" htmlFor="recon-month">
              Month
            </Label>
            <Input
              id="recon-month"
              type="month"
              size="small"
              value={month}
              onChange={(e) => e.target.value && setMonth(e.target.value)}
              data-testid="recon-month"
            />
          </div>
          <Button size="small" variant="secondary" isLoading={loading} onClick={() => reload()} data-testid="recon-refresh">
            Refresh
          </Button>
          <Button
            size="small"
            variant="secondary"
            isLoading={busy === "csv"}
            onClick={() => run("csv", () => downloadCsv(month))}
            data-testid="recon-csv"
          >
            Export CSV
          </Button>
        </>
      }
    >
      {data ? (
        <>
          <Container className="flex flex-wrap gap-3 px-6 py-4" data-testid="recon-summary">
            <Figure label="Orders" value={data.summary.orders} testId="recon-orders" />
            <Figure label="Tax charged" value={data.summary.charged} testId="recon-charged" />
            <Figure label="Tax filed" value={data.summary.filed} testId="recon-filed" />
            <Figure label="Refunded to customers" value={data.summary.refunded_to_customers} testId="recon-refunded-customers" />
            <Figure label="Refunded at the service" value={data.summary.refunded_at_service} testId="recon-refunded-service" />
            <Figure
              label="Difference (net charged − net filed)"
              value={data.summary.difference}
              testId="recon-difference"
              tone={data.summary.difference !== "0.00" ? "error" : undefined}
            />
          </Container>
          <Container className="divide-y p-0" data-testid="recon-attention">
            <AttentionLine testId="recon-us-without-tax" text={data.us_without_tax.text} rows={data.us_without_tax.rows} />
            <AttentionLine testId="recon-not-usd" text={data.not_usd.text} rows={data.not_usd.rows} />
          </Container>
          <Container className="divide-y p-0" data-testid="recon-differences">
            <div className="px-6 py-4">
              <Heading level="h2">Differences ({data.differences_count})</Heading>
            </div>
            {data.differences.length === 0 ? (
              <Text size="small" className="px-6 py-4 text-ui-fg-subtle" data-testid="recon-none">
                Every order of the month is filed as charged.
              </Text>
            ) : (
              <DataTable
                headers={["Order", "Placed", "Charged", "Filed", "Refunded (customer / service)", "Difference", "Reason", ""]}
                rows={data.differences}
                rowKey={(r) => r.order_id}
                rowTestId={(r) => `recon-row-${r.order_id}`}
                cellClassName=""
                cells={(r) => [
                  <NavLink key="order" to={`/orders/${r.order_id}`}>
                    {r.display_id ? `#${r.display_id}` : r.order_id}
                  </NavLink>,
                  <Text key="placed" size="xsmall">
                    {new Date(r.created_at).toLocaleString()}
                  </Text>,
                  r.charged,
                  r.filed,
                  `${r.refunded_to_customer} / ${r.refunded_at_service}`,
                  <Text key="difference" size="small" weight="plus">
                    {r.difference}
                  </Text>,
                  <div key="reason" className="flex flex-col gap-y-1" style={{ maxWidth: 320 }}>
                    {r.reason ? (
                      <Badge size="2xsmall" color={REASON[r.reason]?.color ?? "grey"}>
                        {REASON[r.reason]?.label ?? r.reason}
                      </Badge>
                    ) : null}
                    <Text size="xsmall" className="break-words text-ui-fg-subtle">
                      {r.detail}
                    </Text>
                  </div>,
                  <Button
                    key="fix"
                    size="small"
                    variant="secondary"
                    isLoading={busy === r.order_id}
                    onClick={() => fix(r)}
                    data-testid={`recon-fix-${r.order_id}`}
                  >
                    Fix
                  </Button>,
                ]}
              />
            )}
            {data.truncated ? (
              <Text size="xsmall" className="px-6 py-2 text-ui-fg-muted">
                Showing the largest {data.differences.length}; the CSV has every order.
              </Text>
            ) : null}
          </Container>
        </>
      ) : null}
      <BackfillPanel onDone={() => void reload()} />
    </Page>
  )
}

export const config = defineRouteConfig({ label: "Sales Tax Reconciliation" })
export default ReconciliationPage
