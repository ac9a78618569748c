import { defineRouteConfig } from "@medusajs/admin-sdk"
import { ReceiptPercent } from "@medusajs/icons"
import { Badge, Button, Container, Text, toast } from "@medusajs/ui"
import { Fragment } from "react"
import { api } from "../../../lib/api"
import type { AdminSettingsResponse, TicSource } from "../../../../http/types"
import { useLoad } from "../../../lib/use-load"
import { ticText } from "../../../components/tic-panel"
import { ConnectionsSection } from "../../../components/connections-section"
import { LocationsSection } from "../../../components/locations-section"
import { SetupChecklist } from "../../../components/setup-checklist"
import { DataTable, Figure, NavLink, Page, SettingsSection as Section, Subtitle, useBusy } from "../../../components/ui"

const SOURCE_LABEL: Record<TicSource, string> = {
  product: "Own TIC",
  product_type: "From product type",
  product_category: "From category",
  default: "Falling back to the default",
}

function flatten(obj: Record<string, unknown>, prefix = ""): [string, string][] {
  const out: [string, string][] = []
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k
    if (v && typeof v === "object" && !Array.isArray(v)) out.push(...flatten(v as Record<string, unknown>, key))
    else out.push([key, v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v)])
  }
  return out
}

/** Settings → Sales Tax: connection health, options in force (key redacted), TIC coverage, recent failures. */
const SalesTaxSettingsPage = () => {
  const { data, error, loading, reload } = useLoad(() => api<AdminSettingsResponse>("/admin/sales-tax/settings"), [])
  const { busy: retrying, run } = useBusy()

  const retry = (orderId: string) =>
    run(orderId, async () => {
      const out = await api<{ filing: { state: string; last_error: string | null } }>(
        `/admin/sales-tax/filings/${encodeURIComponent(orderId)}/retry`,
        { method: "POST" },
      )
      if (out.filing.state === "failed") toast.error(`Still failing: ${out.filing.last_error ?? ""}`)
      else toast.success(`Order ${orderId}: ${out.filing.state.replace(/_/g, " ")}`)
      await reload()
    })

  return (
    <Page
      testId="sales-tax-settings"
      title="Sales Tax"
      subtitle={<Subtitle>Connection to the Sales Tax Service, TIC coverage and filing failures.</Subtitle>}
      error={error}
      actions={
        <>
          <NavLink to="/settings/sales-tax/activity" testId="settings-activity-link">
            Activity
          </NavLink>
          <NavLink to="/settings/sales-tax/reconciliation" testId="settings-reconciliation-link">
            Reconciliation
          </NavLink>
          <NavLink to="/settings/sales-tax/nexus" testId="settings-nexus-link">
            Nexus
          </NavLink>
          <NavLink to="/settings/sales-tax/tics" testId="settings-tics-link">
            TICs
          </NavLink>
          <Button size="small" variant="secondary" isLoading={loading} onClick={() => reload()} data-testid="settings-refresh">
            Refresh
          </Button>
        </>
      }
    >
      {data?.filingPaused ? (
        <Container className="flex flex-col gap-y-1 px-6 py-4" data-testid="settings-filing-paused">
          <div className="flex items-center gap-x-2">
            <Badge size="2xsmall" color="red">
              {data.filingPaused.message}
            </Badge>
            <Text size="small" weight="plus" data-testid="settings-filing-paused-orders">
              {data.filingPaused.orders} {data.filingPaused.orders === 1 ? "order" : "orders"} waiting
            </Text>
          </div>
          <Text size="xsmall" className="text-ui-fg-subtle">
            The service answered 401/403 to filing calls. Fix the API key of the connection (plugin option apiKey or the connection&apos;s
            key) and restart; waiting orders are retried with back-off
            {data.filingPaused.nextAttemptAt ? ` (next attempt ${new Date(data.filingPaused.nextAttemptAt).toLocaleString()})` : ""}, and
            all of them as soon as one goes through.
          </Text>
        </Container>
      ) : null}
      <SetupChecklist />
      {data ? (
        <>
          <Section title="Connection" testId="settings-connection">
            <div className="grid items-center gap-x-4 gap-y-3 px-6 py-4" style={{ gridTemplateColumns: "180px 1fr" }}>
              <Text size="small" weight="plus">
                Health
              </Text>
              <div className="flex flex-wrap items-center gap-2" data-testid="settings-health">
                <Badge
                  size="2xsmall"
                  color={
                    data.connection.health.ok && data.connection.health.result?.status === "pass"
                      ? "green"
                      : data.connection.health.ok
                        ? "orange"
                        : "red"
                  }
                >
                  {data.connection.health.ok ? (data.connection.health.result?.status ?? "ok") : "unreachable"}
                </Badge>
                {data.connection.health.result?.components.map((c) => (
                  <Badge key={c.type} size="2xsmall" color={c.status === "pass" ? "green" : "orange"}>
                    {c.type}: {c.status}
                  </Badge>
                ))}
                <Text size="xsmall" className="text-ui-fg-muted">
                  {data.connection.health.durationMs} ms
                </Text>
                {data.connection.health.error ? (
                  <Text size="xsmall" className="text-ui-fg-error">
                    {data.connection.health.error}
                  </Text>
                ) : null}
              </div>
              <Text size="small" weight="plus">
                Credentials (ping)
              </Text>
              <div className="flex flex-wrap items-center gap-2" data-testid="settings-ping">
                <Badge size="2xsmall" color={data.connection.ping.ok ? "green" : "red"}>
                  {data.connection.ping.ok ? "valid" : "failing"}
                </Badge>
                <Text size="xsmall" className="text-ui-fg-subtle">
                  {data.connection.ping.ok ? data.connection.ping.result?.message : data.connection.ping.error}
                </Text>
                <Text size="xsmall" className="text-ui-fg-muted">
                  {data.connection.ping.durationMs} ms
                </Text>
              </div>
            </div>
          </Section>

          <ConnectionsSection />

          <LocationsSection />

          <Section title="Options in force" testId="settings-options">
            <div className="grid gap-x-4 gap-y-1 px-6 py-4" style={{ gridTemplateColumns: "240px 1fr" }}>
              {data.options ? (
                flatten(data.options).map(([k, v]) => (
                  <Fragment key={k}>
                    <Text size="xsmall" className="font-mono text-ui-fg-subtle">
                      {k}
                    </Text>
                    <Text size="xsmall" className="font-mono break-all" data-testid={`option-${k}`}>
                      {v}
                    </Text>
                  </Fragment>
                ))
              ) : (
                <Text size="small" className="text-ui-fg-error">
                  {data.optionsError}
                </Text>
              )}
            </div>
          </Section>

          <Section title="TIC coverage" testId="settings-coverage">
            <div className="flex flex-wrap gap-3 px-6 py-4">
              {(Object.keys(SOURCE_LABEL) as TicSource[]).map((s) => (
                <Figure key={s} label={SOURCE_LABEL[s]} value={data.coverage.bySource[s]} testId={`coverage-${s}`} />
              ))}
            </div>
            <div className="px-6 py-4">
              <Text size="small" className="text-ui-fg-subtle">
                {data.coverage.totalProducts} products. Default TIC: {ticText(data.coverage.defaultTic)}.
              </Text>
              {data.coverage.fallingBack.length ? (
                <ul className="mt-2 flex flex-col gap-y-1" data-testid="coverage-falling-back">
                  {data.coverage.fallingBack.map((p) => (
                    <li key={p.id}>
                      <NavLink to={`/products/${p.id}`}>{p.title ?? p.id}</NavLink>
                    </li>
                  ))}
                  {data.coverage.truncated ? (
                    <Text size="xsmall" className="text-ui-fg-muted">
                      …and more
                    </Text>
                  ) : null}
                </ul>
              ) : (
                <Text size="small" className="mt-2">
                  Every product has a TIC of its own, its type's or a category's.
                </Text>
              )}
            </div>
          </Section>

          <Section title="Recent filing failures" testId="settings-failures">
            {!data.failures.available ? (
              <Text size="small" className="px-6 py-4 text-ui-fg-subtle">
                {data.failures.error ?? "Filing is not available."}
              </Text>
            ) : data.failures.items.length === 0 ? (
              <Text size="small" className="px-6 py-4 text-ui-fg-subtle">
                No failures.
              </Text>
            ) : (
              <DataTable
                headers={["Order", "State", "Last error", "When", ""]}
                rows={data.failures.items}
                rowKey={(f) => f.id}
                rowTestId={(f) => `failure-${f.orderId}`}
                cellClassName=""
                cells={(f) => [
                  f.orderId ? <NavLink to={`/orders/${f.orderId}`}>{f.orderId}</NavLink> : "—",
                  <Badge key="state" size="2xsmall" color="red">
                    {f.state}
                  </Badge>,
                  <Text key="error" size="xsmall" className="break-words" style={{ maxWidth: 360 }}>
                    {f.lastError}
                  </Text>,
                  <Text key="when" size="xsmall">
                    {f.updatedAt ? new Date(f.updatedAt).toLocaleString() : "—"}
                  </Text>,
                  f.orderId ? (
                    <Button
                      key="retry"
                      size="small"
                      variant="transparent"
                      isLoading={retrying === f.orderId}
                      onClick={() => retry(f.orderId!)}
                    >
                      Retry
                    </Button>
                  ) : null,
                ]}
              />
            )}
          </Section>
        </>
      ) : null}
    </Page>
  )
}

export const config = defineRouteConfig({ label: "Sales Tax", icon: ReceiptPercent })
export default SalesTaxSettingsPage
