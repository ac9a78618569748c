// The order filing widget's sections: the record's details, its refunds, related filings, refunds
// without a return, the fix of a needs_attention filing; lines named as the order names them.
import { Copy, Text, toast } from "@medusajs/ui"
import { useState, type ReactNode } from "react"
import { post } from "../lib/api"
import { useSubmit } from "../lib/hooks"
import {
  hasFailedWork,
  lineName,
  lineNames,
  money,
  ratePairs,
  stateLabel,
  when,
  type FilingView,
  type LifecycleView,
  type NamedOrder,
  type RequoteView,
} from "../lib/filing"
import { type BadgeColor, Btn, ErrorText, Field, Note, Row, Strong, Tag } from "./ui"

const KIND_LABEL: Record<string, string> = {
  exchange: "Exchange",
  edit: "Order edit",
  claim: "Replace claim",
  credit: "Credit",
  // an order shipped from several stock locations: one service order per further origin
  order: "Shipped from another location:",
}

const STATE_COLOR: Record<string, BadgeColor> = {
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

export const StateTag = ({ state, prefix = "", testId }: { state: string; prefix?: string; testId?: string }) => (
  <Tag color={STATE_COLOR[state] ?? "grey"} testId={testId}>
    {`${prefix}${stateLabel(state)}`}
  </Tag>
)

const EDIT_MODE: Record<string, string> = { refile: "voided and filed again", supplement: "refunds + own order" }

/** The filing record: service order id, then label, value and test id of each row that applies. */
export function FilingDetails({ f, order }: { f: FilingView; order: NamedOrder }) {
  const requote = f.snapshot?.requote
  const filedAs = { cart: "cart → order", direct: `order with ${requote ? "the re-quoted" : "charged"} tax` }
  const rows: ([string, ReactNode, string?] | false | undefined)[] = [
    ["Filed as", f.filing_path ? filedAs[f.filing_path] : "—"],
    ["Tax charged / filed", `${money(f.charged_tax)} / ${money(f.filed_tax)}`],
    ...ratePairs(f.snapshot?.lines ?? []).map((p): [string, string, string] => [
      "Rate shown by Medusa / the service's",
      `${p.medusa} / ${p.service}${p.itemIds.length ? ` · ${lineNames(order, p.itemIds)}` : p.lines > 1 ? ` (${p.lines} lines)` : ""}`,
      "filing-rates",
    ]),
    !!requote && [
      "Re-quoted (merchant owes)",
      `${requote.state} ${requote.zip}: collected ${money(requote.collectedTax)}, filed ${money(requote.owedTax)}`,
      "filing-requoted",
    ],
    f.tax_difference !== null && Number(f.tax_difference) !== 0 && ["Difference at filing", money(f.tax_difference)],
    ["Filed at", when(f.filed_at)],
    ["Completed date", when(f.completed_at), "filing-completed"],
    [
      `Completion (${f.completion_mode})`,
      f.voided_at ? `voided ${when(f.voided_at)}` : f.completed_at ? "completed" : "awaiting completion",
    ],
    ["Attempts", `${f.attempts}${f.next_attempt_at ? ` · next ${when(f.next_attempt_at)}` : ""}`],
    !!f.edits?.length && [
      "Order edits",
      f.edits.map((e) => `${e.id}: ${e.state}${e.mode ? ` (${EDIT_MODE[e.mode] ?? "no change"})` : ""}`).join("; "),
      "filing-edits",
    ],
    !!f.last_error &&
      f.state !== "needs_attention" && [
        `Last error${f.last_step ? ` (${f.last_step})` : ""}`,
        <ErrorText error={f.last_error} />,
        "filing-last-error",
      ],
  ]
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
      {rows
        .filter((r) => !!r)
        .map(([label, value, testId], i) => (
          <Row key={i} label={label} testId={testId}>
            {value}
          </Row>
        ))}
    </div>
  )
}

const Block = ({ title, testId, children }: { title: string; testId: string; children: ReactNode }) => (
  <div data-testid={testId} className="py-2">
    <Strong className="px-6 pt-1">{title}</Strong>
    {children}
  </div>
)

const Stack = ({ children }: { children: ReactNode }) => <div className="flex flex-col items-end">{children}</div>

/** The record's refunds at the service: each keyed by its idempotency key, with its state, source, tax, lines and error. */
export const FilingRefunds = ({ f, order }: { f: FilingView; order: NamedOrder }) => (
  <Block title="Refunds" testId="filing-refunds">
    {(f.refunds ?? []).map((r) => (
      <Row key={r.id} label={r.idempotency_key} testId={`filing-refund-${r.idempotency_key}`}>
        <Stack>
          <StateTag state={r.state} />
          <Note tone="subtle">{`${r.source_type} · tax ${money(r.refunded_tax)}`}</Note>
          <Note className="break-all">
            {r.items.length ? r.items.map((i) => `${i.quantity} × ${lineName(order, i.itemId)}`).join(", ") : "whole order"}
          </Note>
          <Note tone="error">{r.last_error}</Note>
        </Stack>
      </Row>
    ))}
  </Block>
)

/** The order's other filing records: exchanges, edits, claims, credits, further origins. */
export const RelatedFilings = ({ life }: { life: LifecycleView }) => (
  <Block title="Related filings" testId="filing-children">
    {life.children.map(({ id, kind, order_id, state, snapshot, last_error, charged_tax, filed_tax }) => (
      <Row key={id} label={`${KIND_LABEL[kind] ?? kind} ${order_id}`} testId={`filing-child-${order_id}`}>
        <Stack>
          <StateTag state={state} />
          <Note tone="subtle">
            {snapshot?.claim &&
              `charged = replacement ${money(snapshot.claim.replacementTax)} − claimed ${money(snapshot.claim.claimedTax)} = ${money(snapshot.claim.chargedTax)}`}
          </Note>
          <Note tone="subtle">{state === "skipped" && last_error}</Note>
          <Note>{state !== "skipped" && `charged ${money(charged_tax)} · filed ${money(filed_tax)}`}</Note>
        </Stack>
      </Row>
    ))}
  </Block>
)

/** Refunds without a return, each filed as a credit or with a button to file it (`crediting`: the one being filed). */
export const ManualRefunds = (props: { life: LifecycleView; crediting: string | null; onFileCredit: (refundId: string) => void }) => (
  <Block title="Refunds without a return" testId="filing-manual-refunds">
    {props.life.manual_refunds.map((r) => (
      <Row key={r.refundId} label={`${money(r.unreturned)} refunded ${when(r.createdAt)}`} testId={`filing-manual-refund-${r.refundId}`}>
        <div className="flex items-center justify-end gap-x-2">
          <Note>{`tax ${money(r.tax)}`}</Note>
          {r.filing ? (
            <StateTag state={r.filing} prefix="credit " />
          ) : (
            <>
              <Tag color="orange">not filed</Tag>
              <Btn busy={props.crediting === r.refundId} onClick={() => props.onFileCredit(r.refundId)} testId="filing-file-credit">
                File as credit
              </Btn>
            </>
          )}
        </div>
      </Row>
    ))}
  </Block>
)

/**
 * A needs_attention filing's reason and fix: the service quotes the order's lines for the state and ZIP given, and that tax is filed.
 * None was collected from the shopper: the merchant owes what is filed.
 */
export function AttentionFix({ f, path, onDone }: { f: FilingView; path: string; onDone: () => Promise<void> }) {
  const [to, setTo] = useState({ state: f.snapshot?.destination?.state ?? "", zip: f.snapshot?.destination?.zip ?? "" })
  const { busy, errors, submit } = useSubmit()
  const requote = () =>
    submit(async () => {
      const out = await post<RequoteView>(`${path}/requote`, to)
      if (hasFailedWork(out.filing)) toast.error(`Re-quoted, not filed yet: ${out.filing.last_error ?? "see the record"}`)
      else toast.success(`Filed for ${out.destination?.state} ${out.destination?.zip}: the merchant owes ${money(out.owed_tax)}`)
      await onDone()
    })
  return (
    <div className="flex flex-col gap-y-2 px-6 py-3" data-testid="filing-attention">
      <Strong>Needs attention</Strong>
      <Note tone="error" size="small" className="break-words" testId="filing-attention-reason">
        {f.last_error}
      </Note>
      {/^currency [A-Z]{3}:/.test(f.last_error ?? "") ? (
        <Note tone="subtle">The plugin files USD only: file this order at the service by hand.</Note>
      ) : (
        <>
          <Note tone="subtle">
            Fix: re-quote with a corrected address, then file. No tax was collected from the customer: the tax the service computes for this
            address is filed, and the merchant owes it.
          </Note>
          <div className="flex flex-wrap items-end gap-2">
            {(
              [
                ["state", "State", 88, "TX"],
                ["zip", "ZIP", 120, "78701"],
              ] as const
            ).map(([k, label, width, placeholder]) => (
              <Field
                key={k}
                id={`filing-attention-${k}`}
                {...{ label, width, placeholder }}
                small
                value={to[k]}
                onChange={(v) => setTo((t) => ({ ...t, [k]: v }))}
              />
            ))}
            <Btn busy={busy} onClick={requote} testId="filing-requote">
              Re-quote and file
            </Btn>
          </div>
          <Note tone="error" testId="filing-attention-errors">
            {[errors.state, errors.zip].filter(Boolean).join("; ")}
          </Note>
        </>
      )}
    </div>
  )
}
