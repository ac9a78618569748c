import { Checkbox, Container, Drawer, Heading, Label } from "@medusajs/ui"
import { useState, type ReactNode } from "react"
import { useSearchParams } from "react-router-dom"
import { useApi } from "../../../../lib/hooks"
import type { Json } from "../../../../lib/api"
import type { ActivityEntry } from "../../../../../service/activity"
import { OPERATION_IDS } from "../../../../../../packages/contract/src/index"
import { DataTable, ErrorText, Field, NavLink, Note, type Options, Page, Pager, Row, Strong, Tag } from "../../../../components/ui"

/** Its bodies only in the one-entry answer. */
type Entry = Json<ActivityEntry>

/** The filters that are selects: the query parameter, its label, its options ("all" first: no filter). */
const SELECTS: [param: string, label: string, options: Options][] = [
  ["operation", "Operation", [["all", "All operations"], ...OPERATION_IDS]],
  ["status", "Status", [["all", "Any status"], "2xx", "4xx", "5xx", ["none", "No answer"]]],
]
const PAGE = 25

function StatusTag({ e }: { e: Entry }) {
  if (e.status === null) return <Tag color="red">{e.error_code ?? "no answer"}</Tag>
  return <Tag color={e.status < 300 ? "green" : e.status < 500 ? "orange" : "red"}>{e.status}</Tag>
}

const json = (body: unknown, none: string) => (body ? JSON.stringify(body, null, 2) : none)

/** One call's drawer: its figures and ids, then its request and response bodies when the log keeps them. */
function Detail({ id, onClose }: { id: string; onClose: () => void }) {
  const { data, error } = useApi<{ entry: Entry }>(`/admin/sales-tax/activity/${encodeURIComponent(id)}`)
  const e = data?.entry
  const rows: [string, ReactNode][] = e
    ? [
        ["Time", new Date(e.at).toLocaleString()],
        ["Status", <StatusTag e={e} />],
        ["Latency", `${e.latency_ms} ms`],
        ["Connection", e.connection_id],
        ["Cart", e.cart_id],
        ["Order", e.order_id ? <NavLink to={`/orders/${e.order_id}`}>{e.order_id}</NavLink> : null],
        ["Refund key (return, edit or claim)", e.return_id],
        ["Error", e.error_title ? `${e.error_title}${e.error_code ? ` (${e.error_code})` : ""}` : null],
      ]
    : []
  const bodies: [string, string, string?][] = e
    ? [
        ["Request body", json(e.request_body, "Not kept (set the plugin option log.bodies to keep bodies)"), "activity-request-body"],
        ["Response body", json(e.response_body, "Not kept")],
      ]
    : []
  return (
    <Drawer open onOpenChange={(open) => !open && onClose()}>
      <Drawer.Content data-testid="activity-detail">
        <Drawer.Header>
          <Drawer.Title>{e ? `${e.operation} · attempt ${e.attempt}` : "Service call"}</Drawer.Title>
        </Drawer.Header>
        <Drawer.Body className="flex flex-col gap-y-2 overflow-auto">
          <ErrorText error={error} />
          {rows.map(([label, value]) => (
            <Row key={label} label={label}>
              {value ?? "—"}
            </Row>
          ))}
          {bodies.map(([title, text, testId]) => (
            <div key={title} className="contents">
              <Heading level="h3" className="pt-2">
                {title}
              </Heading>
              <pre className="txt-compact-xsmall bg-ui-bg-subtle overflow-auto rounded p-2" data-testid={testId}>
                {text}
              </pre>
            </div>
          ))}
        </Drawer.Body>
      </Drawer.Content>
    </Drawer>
  )
}

/** Settings → Sales Tax → Activity: every call to the Sales Tax Service, newest first, filtered through the page's URL. */
const ActivityPage = () => {
  const [params, setParams] = useSearchParams()
  const [orderInput, setOrderInput] = useState(params.get("order_id") ?? "")
  const [open, setOpen] = useState<string | null>(null)
  const offset = Number(params.get("offset") ?? 0) || 0
  const set = (k: string, v: string | null) => {
    const next = new URLSearchParams(params)
    if (v) next.set(k, v)
    else next.delete(k)
    if (k !== "offset") next.delete("offset")
    setParams(next)
  }
  const query = new URLSearchParams(params)
  query.set("limit", String(PAGE))
  const load = useApi<{ entries: Entry[]; count: number }>(`/admin/sales-tax/activity?${query.toString()}`)
  const { data } = load
  return (
    <Page
      testId="sales-tax-activity"
      title="Sales Tax activity"
      load={load}
      subtitle="Every call to the Sales Tax Service: operation, status, latency, attempt and the Medusa ids it concerned. Kept for the log's retention period."
      actions={
        <>
          {SELECTS.map(([param, label, options]) => (
            <Field
              key={param}
              id={`activity-${param}`}
              label={label}
              value={params.get(param) ?? "all"}
              onChange={(v) => set(param, v === "all" ? null : v)}
              options={options}
            />
          ))}
          <Field
            id="activity-order"
            label="Order id"
            placeholder="order_…"
            value={orderInput}
            onChange={setOrderInput}
            onBlur={() => set("order_id", orderInput.trim() || null)}
            onKeyDown={(e) => e.key === "Enter" && set("order_id", orderInput.trim() || null)}
          />
          <div className="flex items-center gap-x-2 pb-1">
            <Checkbox
              id="activity-errors"
              checked={params.get("errors_only") === "true"}
              data-testid="activity-errors-only"
              onCheckedChange={(c) => set("errors_only", c === true ? "true" : null)}
            />
            <Label size="small" htmlFor="activity-errors">
              Errors only
            </Label>
          </div>
        </>
      }
    >
      {data ? (
        <Container className="divide-y p-0">
          <DataTable
            empty="No call matches these filters."
            emptyTestId="activity-none"
            headers={["Time", "Operation", "Status", "Latency", "Attempt", "Cart / order", "Error"]}
            rows={data.entries}
            rowKey={(e) => e.id}
            rowTestId={(e) => `activity-${e.id}`}
            onRowClick={(e) => setOpen(e.id)}
            cells={(e) => [
              <Note>{new Date(e.at).toLocaleString()}</Note>,
              <Strong>{e.operation}</Strong>,
              <StatusTag e={e} />,
              <Note>{e.latency_ms} ms</Note>,
              <Note>{e.attempt}</Note>,
              <Note>{e.order_id ?? e.cart_id ?? "—"}</Note>,
              <Note tone="error">{e.error_title ?? ""}</Note>,
            ]}
          />
          <div className="flex items-center justify-between px-6 py-3">
            <Note tone="subtle" size="small" testId="activity-count">
              {data.count === 0 ? "0 calls" : `${offset + 1}–${offset + data.entries.length} of ${data.count} calls`}
            </Note>
            <Pager offset={offset} page={PAGE} count={data.count} go={(o) => set("offset", String(o))} nextTestId="activity-next" />
          </div>
        </Container>
      ) : null}
      {open ? <Detail id={open} onClose={() => setOpen(null)} /> : null}
    </Page>
  )
}

export default ActivityPage
