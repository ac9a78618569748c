import { defineRouteConfig } from "@medusajs/admin-sdk"
import { ReceiptPercent } from "@medusajs/icons"
import { Container, Text, toast } from "@medusajs/ui"
import { post } from "../../../lib/api"
import { useApi, useBusy } from "../../../lib/hooks"
import { stateLabel, when, type FilingView } from "../../../lib/filing"
import type { AdminSettingsResponse } from "../../../../setup/settings"
import type { TicSource } from "../../../../service/tics/tic-resolution"
import { ticText } from "../../../components/tic-panel"
import { ConnectionsSection, LocationsSection, SetupChecklist } from "../../../components/settings-sections"
import { Btn, DataTable, Figure, NavLink, Note, Page, Row, Section, Tag } from "../../../components/ui"

const SOURCE_LABEL: Record<TicSource, string> = {
  product: "Own TIC",
  product_type: "From product type",
  product_category: "From category",
  default: "Falling back to the default",
}

const PAGES = { activity: "Activity", reconciliation: "Reconciliation", nexus: "Nexus", tics: "TICs" }

function flatten(obj: object, prefix = ""): [string, string][] {
  return Object.entries(obj).flatMap(([k, v]): [string, string][] => {
    const key = prefix ? `${prefix}.${k}` : k
    if (v && typeof v === "object" && !Array.isArray(v)) return flatten(v, key)
    return [[key, v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v)]]
  })
}

/** Settings → Sales Tax: setup, connection health, connections and locations, options in force (key redacted), TIC coverage, failures. */
const SalesTaxSettingsPage = () => {
  const load = useApi<AdminSettingsResponse>("/admin/sales-tax/settings")
  const { data, reload } = load
  const { busy: retrying, run } = useBusy()
  const retry = (orderId: string) =>
    run(orderId, async () => {
      const { filing } = await post<{ filing: FilingView }>(`/admin/sales-tax/filings/${encodeURIComponent(orderId)}/retry`)
      if (filing.state === "failed") toast.error(`Still failing: ${filing.last_error ?? ""}`)
      else toast.success(`Order ${orderId}: ${stateLabel(filing.state)}`)
      await reload()
    })
  const { health, ping } = data?.connection ?? {}
  const paused = data?.filingPaused

  return (
    <Page
      testId="sales-tax-settings"
      title="Sales Tax"
      subtitle="Connection to the Sales Tax Service, TIC coverage and filing failures."
      load={load}
      refreshTestId="settings-refresh"
      actions={Object.entries(PAGES).map(([path, label]) => (
        <NavLink key={path} to={`/settings/sales-tax/${path}`} testId={`settings-${path}-link`}>
          {label}
        </NavLink>
      ))}
    >
      {paused ? (
        <Container className="flex flex-col gap-y-1 px-6 py-4" data-testid="settings-filing-paused">
          <div className="flex items-center gap-x-2">
            <Tag color="red">{paused.message}</Tag>
            <Text size="small" weight="plus" data-testid="settings-filing-paused-orders">
              {paused.orders} {paused.orders === 1 ? "order" : "orders"} waiting
            </Text>
          </div>
          <Note tone="subtle">
            The service answered 401/403 to filing calls. Fix the API key of the connection (plugin option apiKey or the connection&apos;s
            key) and restart; waiting orders are retried with back-off
            {paused.nextAttemptAt ? ` (next attempt ${new Date(paused.nextAttemptAt).toLocaleString()})` : ""}, and all of them as soon as
            one goes through.
          </Note>
        </Container>
      ) : null}
      <SetupChecklist />
      {data && health && ping ? (
        <>
          <Section title="Connection" testId="settings-connection">
            <Row label="Health" testId="settings-health">
              <div className="flex flex-wrap items-center justify-end gap-2">
                <Tag color={health.ok && health.result?.status === "pass" ? "green" : health.ok ? "orange" : "red"}>
                  {health.ok ? (health.result?.status ?? "ok") : "unreachable"}
                </Tag>
                {health.result?.components.map((c) => (
                  <Tag key={c.type} color={c.status === "pass" ? "green" : "orange"}>
                    {c.type}: {c.status}
                  </Tag>
                ))}
                <Note tone="muted">{health.durationMs} ms</Note>
                <Note tone="error">{health.error}</Note>
              </div>
            </Row>
            <Row label="Credentials (ping)" testId="settings-ping">
              <div className="flex flex-wrap items-center justify-end gap-2">
                <Tag color={ping.ok ? "green" : "red"}>{ping.ok ? "valid" : "failing"}</Tag>
                <Note tone="subtle">{ping.ok ? ping.result?.message : ping.error}</Note>
                <Note tone="muted">{ping.durationMs} ms</Note>
              </div>
            </Row>
          </Section>

          <ConnectionsSection />
          <LocationsSection />

          <Section title="Options in force" testId="settings-options">
            <div className="py-2">
              {flatten(data.options).map(([k, v]) => (
                <Row key={k} label={k} testId={`option-${k}`}>
                  {v}
                </Row>
              ))}
            </div>
          </Section>

          <Section title="TIC coverage" testId="settings-coverage">
            <div className="flex flex-wrap gap-3 px-6 py-4">
              {(Object.keys(SOURCE_LABEL) as TicSource[]).map((s) => (
                <Figure key={s} label={SOURCE_LABEL[s]} value={data.coverage.bySource[s]} testId={`coverage-${s}`} />
              ))}
            </div>
            <div className="px-6 py-4">
              <Note tone="subtle" size="small">
                {data.coverage.totalProducts} products. Default TIC: {ticText(data.coverage.defaultTic)}.
              </Note>
              {data.coverage.fallingBack.length ? (
                <ul className="mt-2 flex flex-col gap-y-1" data-testid="coverage-falling-back">
                  {data.coverage.fallingBack.map((p) => (
                    <li key={p.id}>
                      <NavLink to={`/products/${p.id}`}>{p.title ?? p.id}</NavLink>
                    </li>
                  ))}
                  {data.coverage.truncated ? <Note tone="muted">…and more</Note> : null}
                </ul>
              ) : (
                <Text size="small" className="mt-2">
                  Every product has a TIC of its own, its type's or a category's.
                </Text>
              )}
            </div>
          </Section>

          <Section title="Recent filing failures" testId="settings-failures">
            <DataTable
              headers={["Order", "State", "Last error", "When", ""]}
              rows={data.failures.available ? data.failures.items : []}
              empty={data.failures.available ? "No failures." : (data.failures.error ?? "Filing is not available.")}
              rowKey={(f) => f.id}
              rowTestId={(f) => `failure-${f.orderId}`}
              cells={(f) => [
                f.orderId ? <NavLink to={`/orders/${f.orderId}`}>{f.orderId}</NavLink> : "—",
                <Tag color="red">{f.state}</Tag>,
                <Text size="xsmall" className="break-words" style={{ maxWidth: 360 }}>
                  {f.lastError}
                </Text>,
                <Note>{when(f.updatedAt)}</Note>,
                f.orderId ? (
                  <Btn variant="transparent" busy={retrying === f.orderId} onClick={() => retry(f.orderId!)}>
                    Retry
                  </Btn>
                ) : null,
              ]}
            />
          </Section>
        </>
      ) : null}
    </Page>
  )
}

export const config = defineRouteConfig({ label: "Sales Tax", icon: ReceiptPercent })
export default SalesTaxSettingsPage
