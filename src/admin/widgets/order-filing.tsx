import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Badge, Button, Container, Copy, Heading, Input, Label, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { Link } from "react-router-dom"
import { AdminApiError, api, errorMessage } from "../lib/api"
import { ratePairs, type RateLine } from "../lib/rates"
import { useLoad } from "../lib/use-load"

/** The filing record as GET /admin/sales-tax/filings/:orderId answers it (FILING's route). */
export interface FilingRefundView {
  id: string
  source_type: string
  source_id: string
  idempotency_key: string
  items: { itemId: string; quantity: number }[]
  state: string
  refunded_tax: number | string | null
  returned_at: string | null
  refunded_at: string | null
  attempts: number
  last_error: string | null
}
export interface FilingView {
  id: string
  order_id: string
  kind: string
  cart_id: string | null
  state: string
  filing_path: string | null
  completion_mode: string
  charged_tax: number | string | null
  filed_tax: number | string | null
  tax_difference: number | string | null
  filed_at: string | null
  completed_at: string | null
  voided_at: string | null
  attempts: number
  next_attempt_at: string | null
  last_error: string | null
  last_step: string | null
  revision?: number
  edits?: { id: string; state: string; mode?: string; at: string }[] | null
  snapshot?: {
    claim?: { type: string; replacementTax: number; claimedTax: number; chargedTax: number } | null
    destination?: { state: string; zip: string } | null
    requote?: { at: string; collectedTax: number; owedTax: number; state: string; zip: string } | null
    lines?: RateLine[] | null
  } | null
  refunds?: FilingRefundView[]
}

/** GET /admin/sales-tax/filings/:orderId/lifecycle: the order's other records and its refunds without a return. */
export interface LifecycleView {
  children: FilingView[]
  manual_refunds: {
    refundId: string
    amount: number
    unreturned: number
    tax: number
    creditId: string
    createdAt: string
    filing: string | null
  }[]
}

const KIND_LABEL: Record<string, string> = {
  exchange: "Exchange",
  edit: "Order edit",
  claim: "Replace claim",
  credit: "Credit",
  // an order shipped from several stock locations: one service order per further origin
  order: "Shipped from another location:",
}

const STATE_COLOR: Record<string, "green" | "blue" | "orange" | "red" | "grey" | "purple"> = {
  pending: "orange",
  filed: "blue",
  completed: "green",
  partially_refunded: "purple",
  refunded: "purple",
  voided: "grey",
  failed: "red",
  skipped: "grey",
  needs_attention: "red",
  superseded: "grey",
}

export function stateLabel(s: string): string {
  return s.replace(/_/g, " ")
}

function money(v: number | string | null | undefined): string {
  if (v === null || v === undefined || v === "") return "—"
  const n = typeof v === "number" ? v : Number(v)
  return Number.isFinite(n) ? `${n < 0 ? "-" : ""}$${Math.abs(n).toFixed(2)}` : String(v)
}

function when(v: string | null | undefined): string {
  return v ? new Date(v).toLocaleString() : "—"
}

/** Failed work a retry can restart: the record itself, or one of its refunds. */
export function hasFailedWork(f: FilingView): boolean {
  return f.state === "failed" || (f.refunds ?? []).some((r) => r.state === "failed")
}

function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="grid grid-cols-2 items-start gap-x-3 px-6 py-2">
      <Text size="small" weight="plus" className="min-w-0 break-words text-ui-fg-subtle">
        {label}
      </Text>
      <div className="min-w-0 break-words text-right" data-testid={testId}>
        {typeof children === "string" ? <Text size="small">{children}</Text> : children}
      </div>
    </div>
  )
}

/** POST /admin/sales-tax/filings/:orderId/requote's answer. */
interface RequoteView {
  requoted: boolean
  destination?: { state: string; zip: string }
  collected_tax?: string
  owed_tax?: string
  filing: FilingView
}

/**
 * The fix of a needs_attention filing (issue 26): its reason, and "re-quote with a corrected
 * address, then file" — the service quotes the order's lines for the state and ZIP given, and that
 * tax is filed. None was collected from the shopper: the merchant owes what is filed.
 */
function AttentionFix({ f, path, onDone }: { f: FilingView; path: string; onDone: () => Promise<void> }) {
  const [state, setState] = useState(f.snapshot?.destination?.state ?? "")
  const [zip, setZip] = useState(f.snapshot?.destination?.zip ?? "")
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const currency = /^currency [A-Z]{3}:/.test(f.last_error ?? "")
  const submit = async () => {
    setBusy(true)
    setErrors({})
    try {
      const out = await api<RequoteView>(`${path}/requote`, { method: "POST", body: { state, zip } })
      if (hasFailedWork(out.filing)) toast.error(`Re-quoted, not filed yet: ${out.filing.last_error ?? "see the record"}`)
      else toast.success(`Filed for ${out.destination?.state} ${out.destination?.zip}: the merchant owes ${money(out.owed_tax)}`)
      await onDone()
    } catch (e) {
      const fe = e instanceof AdminApiError ? e.fieldErrors() : {}
      setErrors(fe)
      if (!Object.keys(fe).length) toast.error(errorMessage(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="flex flex-col gap-y-2 px-6 py-3" data-testid="filing-attention">
      <Text size="small" weight="plus">
        Needs attention
      </Text>
      <Text size="small" className="break-words text-ui-fg-error" data-testid="filing-attention-reason">
        {f.last_error}
      </Text>
      {currency ? (
        <Text size="xsmall" className="text-ui-fg-subtle">
          The plugin files USD only: file this order at the service by hand.
        </Text>
      ) : (
        <>
          <Text size="xsmall" className="text-ui-fg-subtle">
            Fix: re-quote with a corrected address, then file. No tax was collected from the customer: the tax the service computes for this
            address is filed, and the merchant owes it.
          </Text>
          <div className="flex flex-wrap items-end gap-2">
            <div className="flex min-w-0 flex-col gap-y-1" style={{ width: 88 }}>
              <Label size="xsmall" htmlFor="filing-attention-state">
                State
              </Label>
              <Input
                id="filing-attention-state"
                size="small"
                value={state}
                placeholder="TX"
                onChange={(e) => setState(e.target.value)}
                aria-invalid={!!errors.state}
                data-testid="filing-attention-state"
              />
            </div>
            <div className="flex min-w-0 flex-col gap-y-1" style={{ width: 120 }}>
              <Label size="xsmall" htmlFor="filing-attention-zip">
                ZIP
              </Label>
              <Input
                id="filing-attention-zip"
                size="small"
                value={zip}
                placeholder="78701"
                onChange={(e) => setZip(e.target.value)}
                aria-invalid={!!errors.zip}
                data-testid="filing-attention-zip"
              />
            </div>
            <Button size="small" variant="secondary" isLoading={busy} onClick={submit} data-testid="filing-requote">
              Re-quote and file
            </Button>
          </div>
          {errors.state || errors.zip ? (
            <Text size="xsmall" className="text-ui-fg-error" data-testid="filing-attention-errors">
              {[errors.state, errors.zip].filter(Boolean).join("; ")}
            </Text>
          ) : null}
        </>
      )}
    </div>
  )
}

/** Order page: the sales-tax filing record (state, service order id, completion, refunds, last error) and a retry button. */
const OrderFilingWidget = ({ data }: DetailWidgetProps<AdminOrder>) => {
  const path = `/admin/sales-tax/filings/${encodeURIComponent(data.id)}`
  const {
    data: res,
    error,
    loading,
    reload,
  } = useLoad(async () => {
    try {
      return await api<{ filing: FilingView }>(path)
    } catch (e) {
      if (e instanceof AdminApiError && e.status === 404) return { filing: null }
      throw e
    }
  }, [path])
  const [retrying, setRetrying] = useState(false)
  const [crediting, setCrediting] = useState<string | null>(null)
  const f = res?.filing ?? null
  const { data: life, reload: reloadLife } = useLoad(async () => {
    try {
      return await api<LifecycleView>(`${path}/lifecycle`)
    } catch {
      return null
    }
  }, [path])

  const fileCredit = async (refundId: string) => {
    setCrediting(refundId)
    try {
      const out = await api<{ filing: FilingView }>(`${path}/credits`, { method: "POST", body: { refund_id: refundId } })
      if (hasFailedWork(out.filing)) toast.error(`Credit not filed yet: ${out.filing.last_error ?? "see the record"}`)
      else toast.success("Refund filed as a credit")
      await reloadLife()
    } catch (e) {
      toast.error(errorMessage(e))
    } finally {
      setCrediting(null)
    }
  }

  const retry = async () => {
    setRetrying(true)
    try {
      const out = await api<{ filing: FilingView }>(`${path}/retry`, { method: "POST" })
      if (hasFailedWork(out.filing)) toast.error(`Retry failed: ${out.filing.last_error ?? "see the record"}`)
      else toast.success(`Filing ${stateLabel(out.filing.state)}`)
      await reload()
    } catch (e) {
      toast.error(errorMessage(e))
    } finally {
      setRetrying(false)
    }
  }

  return (
    <Container className="divide-y p-0" data-testid="sales-tax-filing">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">Sales tax filing</Heading>
        <div className="flex items-center gap-x-2">
          <Link
            to={`/settings/sales-tax/activity?order_id=${encodeURIComponent(data.id)}`}
            className="text-ui-fg-interactive txt-compact-small hover:underline"
            data-testid="filing-activity-link"
          >
            Service calls
          </Link>
          {f ? (
            <Badge size="2xsmall" color={STATE_COLOR[f.state] ?? "grey"} data-testid="filing-state">
              {stateLabel(f.state)}
            </Badge>
          ) : null}
          {f && f.state !== "needs_attention" && (hasFailedWork(f) || f.last_error) ? (
            <Button size="small" variant="secondary" isLoading={retrying} onClick={retry} data-testid="filing-retry">
              Retry
            </Button>
          ) : null}
        </div>
      </div>
      {loading && !res ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle">
          Loading…
        </Text>
      ) : null}
      {error ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-error">
          {error}
        </Text>
      ) : null}
      {res && !f ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle" data-testid="filing-none">
          No filing record for this order yet.
        </Text>
      ) : null}
      {f && f.state === "needs_attention" ? <AttentionFix f={f} path={path} onDone={reload} /> : null}
      {f ? (
        <div className="py-2">
          <Row label="Service order id" testId="filing-order-id">
            <div className="flex items-center justify-end gap-x-1">
              <Text size="small" className="font-mono">
                {f.order_id}
              </Text>
              <Copy content={f.order_id} />
            </div>
          </Row>
          <Row label="Filed as">
            {f.filing_path === "cart"
              ? "cart → order"
              : f.filing_path === "direct"
                ? f.snapshot?.requote
                  ? "order with the re-quoted tax"
                  : "order with charged tax"
                : "—"}
          </Row>
          <Row label="Tax charged / filed">{`${money(f.charged_tax)} / ${money(f.filed_tax)}`}</Row>
          {ratePairs(f.snapshot?.lines ?? []).map((p) => (
            <Row key={`${p.medusa}|${p.service}`} label="Rate shown by Medusa / the service's" testId="filing-rates">
              {`${p.medusa} / ${p.service}${p.lines > 1 ? ` (${p.lines} lines)` : ""}`}
            </Row>
          ))}
          {f.snapshot?.requote ? (
            <Row label="Re-quoted (merchant owes)" testId="filing-requoted">
              {`${f.snapshot.requote.state} ${f.snapshot.requote.zip}: collected ${money(f.snapshot.requote.collectedTax)}, filed ${money(f.snapshot.requote.owedTax)}`}
            </Row>
          ) : null}
          {f.tax_difference !== null && Number(f.tax_difference) !== 0 ? (
            <Row label="Difference at filing">{money(f.tax_difference)}</Row>
          ) : null}
          <Row label="Filed at">{when(f.filed_at)}</Row>
          <Row label="Completed date" testId="filing-completed">
            {when(f.completed_at)}
          </Row>
          <Row label={`Completion (${f.completion_mode})`}>
            {f.voided_at ? `voided ${when(f.voided_at)}` : f.completed_at ? "completed" : "awaiting completion"}
          </Row>
          <Row label="Attempts">{`${f.attempts}${f.next_attempt_at ? ` · next ${when(f.next_attempt_at)}` : ""}`}</Row>
          {(f.edits ?? []).length ? (
            <Row label="Order edits" testId="filing-edits">
              {(f.edits ?? [])
                .map(
                  (e) =>
                    `${e.id}: ${e.state}${e.mode ? ` (${e.mode === "refile" ? "voided and filed again" : e.mode === "supplement" ? "refunds + own order" : "no change"})` : ""}`,
                )
                .join("; ")}
            </Row>
          ) : null}
          {f.last_error && f.state !== "needs_attention" ? (
            <Row label={`Last error${f.last_step ? ` (${f.last_step})` : ""}`} testId="filing-last-error">
              <Text size="small" className="text-ui-fg-error">
                {f.last_error}
              </Text>
            </Row>
          ) : null}
        </div>
      ) : null}
      {f && (f.refunds ?? []).length > 0 ? (
        <div data-testid="filing-refunds">
          <Text size="small" weight="plus" className="px-6 pt-3">
            Refunds
          </Text>
          {/* stacked, not a table: the widget's column is ~440 px wide at Medusa's admin widths (issue 30) */}
          <ul className="flex flex-col divide-y">
            {(f.refunds ?? []).map((r) => (
              <li key={r.id} className="flex min-w-0 flex-col gap-y-1 px-6 py-2" data-testid={`filing-refund-${r.idempotency_key}`}>
                <div className="flex min-w-0 flex-wrap items-center justify-between gap-x-2">
                  <Text size="xsmall" className="min-w-0 break-all font-mono">
                    {r.idempotency_key}
                  </Text>
                  <Badge size="2xsmall" color={STATE_COLOR[r.state] ?? "grey"}>
                    {stateLabel(r.state)}
                  </Badge>
                </div>
                <div className="flex min-w-0 flex-wrap justify-between gap-x-2">
                  <Text size="xsmall" className="text-ui-fg-subtle">
                    {r.source_type}
                  </Text>
                  <Text size="xsmall">{`tax ${money(r.refunded_tax)}`}</Text>
                </div>
                <Text size="xsmall" className="min-w-0 break-all">
                  {r.items.length ? r.items.map((i) => `${i.quantity} × ${i.itemId}`).join(", ") : "whole order"}
                </Text>
                {r.last_error ? (
                  <Text size="xsmall" className="break-words text-ui-fg-error">
                    {r.last_error}
                  </Text>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {life && life.children.length > 0 ? (
        <div data-testid="filing-children" className="py-2">
          <Text size="small" weight="plus" className="px-6 pt-1">
            Related filings
          </Text>
          {life.children.map((c) => (
            <Row key={c.id} label={`${KIND_LABEL[c.kind] ?? c.kind} ${c.order_id}`} testId={`filing-child-${c.order_id}`}>
              <div className="flex flex-col items-end">
                <Badge size="2xsmall" color={STATE_COLOR[c.state] ?? "grey"}>
                  {stateLabel(c.state)}
                </Badge>
                {c.snapshot?.claim ? (
                  <Text size="xsmall" className="text-ui-fg-subtle">
                    {`charged = replacement ${money(c.snapshot.claim.replacementTax)} − claimed ${money(c.snapshot.claim.claimedTax)} = ${money(c.snapshot.claim.chargedTax)}`}
                  </Text>
                ) : null}
                {c.state === "skipped" && c.last_error ? (
                  <Text size="xsmall" className="text-ui-fg-subtle">
                    {c.last_error}
                  </Text>
                ) : null}
                {c.state !== "skipped" ? (
                  <Text size="xsmall">{`charged ${money(c.charged_tax)} · filed ${money(c.filed_tax)}`}</Text>
                ) : null}
              </div>
            </Row>
          ))}
        </div>
      ) : null}
      {life && life.manual_refunds.length > 0 ? (
        <div data-testid="filing-manual-refunds" className="py-2">
          <Text size="small" weight="plus" className="px-6 pt-1">
            Refunds without a return
          </Text>
          {life.manual_refunds.map((r) => (
            <Row
              key={r.refundId}
              label={`${money(r.unreturned)} refunded ${when(r.createdAt)}`}
              testId={`filing-manual-refund-${r.refundId}`}
            >
              <div className="flex items-center justify-end gap-x-2">
                <Text size="xsmall">{`tax ${money(r.tax)}`}</Text>
                {r.filing ? (
                  <Badge size="2xsmall" color={STATE_COLOR[r.filing] ?? "grey"}>{`credit ${stateLabel(r.filing)}`}</Badge>
                ) : (
                  <>
                    <Badge size="2xsmall" color="orange">
                      not filed
                    </Badge>
                    <Button
                      size="small"
                      variant="secondary"
                      isLoading={crediting === r.refundId}
                      onClick={() => fileCredit(r.refundId)}
                      data-testid="filing-file-credit"
                    >
                      File as credit
                    </Button>
                  </>
                )}
              </div>
            </Row>
          ))}
        </div>
      ) : null}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "order.details.side.after", id: "medusa-sales-tax:order-filing" })
export default OrderFilingWidget
