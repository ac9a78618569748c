import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Badge, Button, Container, Heading, Text, toast } from "@medusajs/ui"
import { Link } from "react-router-dom"
import { AttentionFix } from "../components/filing-attention"
import { FilingDetails, FilingRefunds, ManualRefunds, RelatedFilings } from "../components/filing-sections"
import { LoadStatus, useBusy } from "../components/ui"
import { AdminApiError, api } from "../lib/api"
import { STATE_COLOR, hasFailedWork, stateLabel, type FilingView, type LifecycleView } from "../lib/filing"
import { useLoad } from "../lib/use-load"

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
  const { busy, run } = useBusy()
  const f = res?.filing ?? null
  const { data: life, reload: reloadLife } = useLoad(async () => {
    try {
      return await api<LifecycleView>(`${path}/lifecycle`)
    } catch {
      return null
    }
  }, [path])

  const fileCredit = (refundId: string) =>
    run(refundId, async () => {
      const out = await api<{ filing: FilingView }>(`${path}/credits`, { method: "POST", body: { refund_id: refundId } })
      if (hasFailedWork(out.filing)) toast.error(`Credit not filed yet: ${out.filing.last_error ?? "see the record"}`)
      else toast.success("Refund filed as a credit")
      await reloadLife()
    })

  const retry = () =>
    run("retry", async () => {
      const out = await api<{ filing: FilingView }>(`${path}/retry`, { method: "POST" })
      if (hasFailedWork(out.filing)) toast.error(`Retry failed: ${out.filing.last_error ?? "see the record"}`)
      else toast.success(`Filing ${stateLabel(out.filing.state)}`)
      await reload()
    })

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
            <Button size="small" variant="secondary" isLoading={busy === "retry"} onClick={retry} data-testid="filing-retry">
              Retry
            </Button>
          ) : null}
        </div>
      </div>
      <LoadStatus loading={loading && !res} error={error} />
      {res && !f ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle" data-testid="filing-none">
          No filing record for this order yet.
        </Text>
      ) : null}
      {f && f.state === "needs_attention" ? <AttentionFix f={f} path={path} onDone={reload} /> : null}
      {f ? <FilingDetails f={f} order={data} /> : null}
      {f && (f.refunds ?? []).length > 0 ? <FilingRefunds f={f} order={data} /> : null}
      {life && life.children.length > 0 ? <RelatedFilings life={life} /> : null}
      {life && life.manual_refunds.length > 0 ? (
        <ManualRefunds life={life} crediting={busy === "retry" ? null : busy} onFileCredit={fileCredit} />
      ) : null}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "order.details.side.after", id: "medusa-sales-tax:order-filing" })
export default OrderFilingWidget
