/** The order filing widget's sections: the record's details, its refunds, related filings, refunds without a return. */
import { Badge, Button, Copy, Text } from "@medusajs/ui"
import {
  KIND_LABEL,
  STATE_COLOR,
  lineName,
  lineNames,
  money,
  stateLabel,
  when,
  type FilingView,
  type LifecycleView,
  type NamedOrder,
} from "../lib/filing"
import { ratePairs } from "../lib/rates"
import { Row } from "./ui"

/** The filing record: service order id, how it was filed, amounts, dates, attempts, edits, last error; lines named as the order names them. */
export function FilingDetails({ f, order }: { f: FilingView; order: NamedOrder }) {
  return (
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
          {`${p.medusa} / ${p.service}${p.itemIds.length ? ` · ${lineNames(order, p.itemIds)}` : p.lines > 1 ? ` (${p.lines} lines)` : ""}`}
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
  )
}

/** The record's refunds at the service (stacked: the widget's column is narrow), their lines by product title. */
export function FilingRefunds({ f, order }: { f: FilingView; order: NamedOrder }) {
  return (
    <div data-testid="filing-refunds">
      <Text size="small" weight="plus" className="px-6 pt-3">
        Refunds
      </Text>
      {/* stacked, not a table: the widget's column is ~440 px wide at Medusa's admin widths */}
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
              {r.items.length ? r.items.map((i) => `${i.quantity} × ${lineName(order, i.itemId)}`).join(", ") : "whole order"}
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
  )
}

/** The order's other filing records: exchanges, edits, claims, credits, further origins. */
export function RelatedFilings({ life }: { life: LifecycleView }) {
  return (
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
            {c.state !== "skipped" ? <Text size="xsmall">{`charged ${money(c.charged_tax)} · filed ${money(c.filed_tax)}`}</Text> : null}
          </div>
        </Row>
      ))}
    </div>
  )
}

/** Refunds without a return, each filed as a credit or with a button to file it. */
export function ManualRefunds({
  life,
  crediting,
  onFileCredit,
}: {
  life: LifecycleView
  /** the refund being filed, if any */
  crediting: string | null
  onFileCredit: (refundId: string) => void
}) {
  return (
    <div data-testid="filing-manual-refunds" className="py-2">
      <Text size="small" weight="plus" className="px-6 pt-1">
        Refunds without a return
      </Text>
      {life.manual_refunds.map((r) => (
        <Row key={r.refundId} label={`${money(r.unreturned)} refunded ${when(r.createdAt)}`} testId={`filing-manual-refund-${r.refundId}`}>
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
                  onClick={() => onFileCredit(r.refundId)}
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
  )
}
