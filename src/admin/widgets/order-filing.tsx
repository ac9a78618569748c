import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { toast } from "@medusajs/ui"
import { AttentionFix, FilingDetails, FilingRefunds, ManualRefunds, RelatedFilings, StateTag } from "../components/filing-sections"
import { Btn, Empty, NavLink, Section } from "../components/ui"
import { api, orNone, post } from "../lib/api"
import { hasFailedWork, stateLabel, type FilingView, type LifecycleView } from "../lib/filing"
import { useBusy, useLoad } from "../lib/hooks"

/** Order page: the sales-tax filing record (state, service order id, completion, refunds, last error), its lifecycle, and the fixes. */
const OrderFilingWidget = ({ data }: DetailWidgetProps<AdminOrder>) => {
  const path = `/admin/sales-tax/filings/${encodeURIComponent(data.id)}`
  const load = useLoad(() => orNone<{ filing: FilingView }>(path), [path])
  const { data: res, reload } = load
  const { data: life, reload: reloadLife } = useLoad(() => api<LifecycleView>(`${path}/lifecycle`).catch(() => null), [path])
  const { busy, run } = useBusy()
  const f = res?.filing ?? null

  const act = (key: string, url: string, body: object | undefined, failed: string, ok: (f: FilingView) => string) =>
    run(key, async () => {
      const out = await post<{ filing: FilingView }>(url, body)
      if (hasFailedWork(out.filing)) toast.error(`${failed}: ${out.filing.last_error ?? "see the record"}`)
      else toast.success(ok(out.filing))
      await Promise.all([reload(), reloadLife()])
    })
  const retry = () => act("retry", `${path}/retry`, undefined, "Retry failed", (out) => `Filing ${stateLabel(out.state)}`)
  const fileCredit = (refundId: string) =>
    act(refundId, `${path}/credits`, { refund_id: refundId }, "Credit not filed yet", () => "Refund filed as a credit")

  return (
    <Section
      testId="sales-tax-filing"
      title="Sales tax filing"
      load={load}
      actions={
        <>
          <NavLink to={`/settings/sales-tax/activity?order_id=${encodeURIComponent(data.id)}`} testId="filing-activity-link">
            Service calls
          </NavLink>
          {f ? <StateTag state={f.state} testId="filing-state" /> : null}
          {f && f.state !== "needs_attention" && (hasFailedWork(f) || f.last_error) ? (
            <Btn busy={busy === "retry"} onClick={retry} testId="filing-retry">
              Retry
            </Btn>
          ) : null}
        </>
      }
    >
      {res === null ? <Empty testId="filing-none">No filing record for this order yet.</Empty> : null}
      {f?.state === "needs_attention" ? <AttentionFix f={f} path={path} onDone={reload} /> : null}
      {f ? <FilingDetails f={f} order={data} /> : null}
      {f?.refunds?.length ? <FilingRefunds f={f} order={data} /> : null}
      {life?.children.length ? <RelatedFilings life={life} /> : null}
      {life?.manual_refunds.length ? (
        <ManualRefunds life={life} crediting={busy === "retry" ? null : busy} onFileCredit={fileCredit} />
      ) : null}
    </Section>
  )
}

export const config = defineWidgetConfig({ zone: "order.details.side.after", id: "medusa-sales-tax:order-filing" })
export default OrderFilingWidget
