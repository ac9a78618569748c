import { Badge, Button, Checkbox, Container, Drawer, Heading, Input, Label, Select, Text } from "@medusajs/ui"
import { useState } from "react"
import { Link, useSearchParams } from "react-router-dom"
import { api } from "../../../../lib/api"
import type { ActivityEntryView as Entry } from "../../../../../http/types"
import { useLoad } from "../../../../lib/use-load"
import { DataTable, ErrorText, Page, Pager } from "../../../../components/ui"

const OPERATIONS = [
  "calculateCarts",
  "getCart",
  "cartToOrder",
  "createOrder",
  "getOrder",
  "updateOrder",
  "voidOrder",
  "refundOrder",
  "createCertificate",
  "getCertificate",
  "disableCertificate",
  "listCertificates",
  "searchTics",
  "verifyAddress",
  "ping",
  "health",
]
const PAGE = 25

function statusBadge(e: Entry) {
  if (e.status === null)
    return (
      <Badge size="2xsmall" color="red">
        {e.error_code ?? "no answer"}
      </Badge>
    )
  const color = e.status < 300 ? "green" : e.status < 500 ? "orange" : "red"
  return (
    <Badge size="2xsmall" color={color}>
      {e.status}
    </Badge>
  )
}

function Detail({ id, onClose }: { id: string; onClose: () => void }) {
  const { data, error } = useLoad(() => api<{ entry: Entry }>(`/admin/sales-tax/activity/${encodeURIComponent(id)}`), [id])
  const e = data?.entry
  const row = (label: string, value: React.ReactNode) => (
    <div className="flex justify-between gap-x-4 py-1">
      <Text size="small" className="text-ui-fg-subtle">
        {label}
      </Text>
      <Text size="small" className="text-right">
        {value ?? "—"}
      </Text>
    </div>
  )
  return (
    <Drawer open onOpenChange={(open) => !open && onClose()}>
      <Drawer.Content data-testid="activity-detail">
        <Drawer.Header>
          <Drawer.Title>{e ? `${e.operation} · attempt ${e.attempt}` : "Service call"}</Drawer.Title>
        </Drawer.Header>
        <Drawer.Body className="flex flex-col gap-y-2 overflow-auto">
          <ErrorText error={error} />
          {e ? (
            <>
              {row("Time", new Date(e.at).toLocaleString())}
              {row("Status", statusBadge(e))}
              {row("Latency", `${e.latency_ms} ms`)}
              {row("Connection", e.connection_id)}
              {row("Cart", e.cart_id)}
              {row(
                "Order",
                e.order_id ? (
                  <Link to={`/orders/${e.order_id}`} className="text-ui-fg-interactive hover:underline">
                    {e.order_id}
                  </Link>
                ) : null,
              )}
              {row("Refund key (return, edit or claim)", e.return_id)}
              {row("Error", e.error_title ? `${e.error_title}${e.error_code ? ` (${e.error_code})` : ""}` : null)}
              <Heading level="h3" className="pt-2">
                Request body
              </Heading>
              <pre className="txt-compact-xsmall bg-ui-bg-subtle overflow-auto rounded p-2" data-testid="activity-request-body">
                {e.request_body ? JSON.stringify(e.request_body, null, 2) : "Not kept (set the plugin option log.bodies to keep bodies)"}
              </pre>
              <Heading level="h3" className="pt-2">
                Response body
              </Heading>
              <pre className="txt-compact-xsmall bg-ui-bg-subtle overflow-auto rounded p-2">
                {e.response_body ? JSON.stringify(e.response_body, null, 2) : "Not kept"}
              </pre>
            </>
          ) : null}
        </Drawer.Body>
      </Drawer.Content>
    </Drawer>
  )
}

/** Settings → Sales Tax → Activity: every call to the Sales Tax Service, newest first. */
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
  const { data, error, loading, reload } = useLoad(
    () => api<{ entries: Entry[]; count: number; limit: number; offset: number }>(`/admin/sales-tax/activity?${query.toString()}`),
    [query.toString()],
  )
  return (
    <Page
      testId="sales-tax-activity"
      title="Sales Tax activity"
      error={error}
      subtitle={
        <Text size="small" className="text-ui-fg-subtle">
          Every call to the Sales Tax Service: operation, status, latency, attempt and the Medusa ids it concerned. Kept for the log's
          retention period.
        </Text>
      }
      actions={
        <>
          <div className="flex flex-col gap-y-1">
            <Label size="small">Operation</Label>
            <Select size="small" value={params.get("operation") ?? "all"} onValueChange={(v) => set("operation", v === "all" ? null : v)}>
              <Select.Trigger data-testid="activity-operation">
                <Select.Value />
              </Select.Trigger>
              <Select.Content>
                <Select.Item value="all">All operations</Select.Item>
                {OPERATIONS.map((o) => (
                  <Select.Item key={o} value={o}>
                    {o}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select>
          </div>
          <div className="flex flex-col gap-y-1">
            <Label size="small">Status</Label>
            <Select size="small" value={params.get("status") ?? "all"} onValueChange={(v) => set("status", v === "all" ? null : v)}>
              <Select.Trigger data-testid="activity-status">
                <Select.Value />
              </Select.Trigger>
              <Select.Content>
                <Select.Item value="all">Any status</Select.Item>
                <Select.Item value="2xx">2xx</Select.Item>
                <Select.Item value="4xx">4xx</Select.Item>
                <Select.Item value="5xx">5xx</Select.Item>
                <Select.Item value="none">No answer</Select.Item>
              </Select.Content>
            </Select>
          </div>
          <div className="flex flex-col gap-y-1">
            <Label size="small" htmlFor="activity-order">
              Order id
            </Label>
            <Input
              id="activity-order"
              size="small"
              placeholder="order_…"
              value={orderInput}
              data-testid="activity-order"
              onChange={(e) => setOrderInput(e.target.value)}
              onBlur={() => set("order_id", orderInput.trim() || null)}
              onKeyDown={(e) => e.key === "Enter" && set("order_id", orderInput.trim() || null)}
            />
          </div>
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
          <Button size="small" variant="secondary" isLoading={loading} onClick={() => reload()}>
            Refresh
          </Button>
        </>
      }
    >
      {data ? (
        <Container className="divide-y p-0">
          {data.entries.length === 0 ? (
            <Text size="small" className="px-6 py-4 text-ui-fg-subtle" data-testid="activity-none">
              No call matches these filters.
            </Text>
          ) : (
            <DataTable
              headers={["Time", "Operation", "Status", "Latency", "Attempt", "Cart / order", "Error"]}
              rows={data.entries}
              rowKey={(e) => e.id}
              rowTestId={(e) => `activity-${e.id}`}
              onRowClick={(e) => setOpen(e.id)}
              cellClassName=""
              cells={(e) => [
                <Text key="at" size="xsmall">
                  {new Date(e.at).toLocaleString()}
                </Text>,
                <Text key="op" size="small" weight="plus">
                  {e.operation}
                </Text>,
                statusBadge(e),
                <Text key="ms" size="xsmall">
                  {e.latency_ms} ms
                </Text>,
                <Text key="attempt" size="xsmall">
                  {e.attempt}
                </Text>,
                <Text key="ids" size="xsmall">
                  {e.order_id ?? e.cart_id ?? "—"}
                </Text>,
                <Text key="error" size="xsmall" className="text-ui-fg-error">
                  {e.error_title ?? ""}
                </Text>,
              ]}
            />
          )}
          <div className="flex items-center justify-between px-6 py-3">
            <Text size="small" className="text-ui-fg-subtle" data-testid="activity-count">
              {data.count === 0 ? "0 calls" : `${offset + 1}–${offset + data.entries.length} of ${data.count} calls`}
            </Text>
            <Pager offset={offset} page={PAGE} count={data.count} go={(o) => set("offset", String(o))} nextTestId="activity-next" />
          </div>
        </Container>
      ) : null}
      {open ? <Detail id={open} onClose={() => setOpen(null)} /> : null}
    </Page>
  )
}

export default ActivityPage
