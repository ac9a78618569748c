import { Badge, Button, Container, Table, Text } from "@medusajs/ui"
import { useState } from "react"
import { api } from "../../../../lib/api"
import { useLoad } from "../../../../lib/use-load"
import { NavLink, Page, useBusy } from "../../../../components/ui"
import type { NexusReport } from "../../../../../nexus/medusa"
import type { ExposureRow, ExposureStatus } from "../../../../../nexus/exposure"

const STATUS: Record<ExposureStatus, { label: string; color: "red" | "orange" | "grey" | "green" }> = {
  over: { label: "Past threshold — not registered", color: "red" },
  near: { label: "Past 80 %", color: "orange" },
  below: { label: "Below 80 %", color: "grey" },
  registered: { label: "Registered", color: "green" },
  no_sales_tax: { label: "No state sales tax", color: "grey" },
}

const PERIOD: Record<ExposureRow["threshold"]["period"], string> = {
  previous_or_current_year: "previous or current calendar year",
  previous_year: "previous calendar year",
  trailing_12_months: "last 12 months",
  four_quarters: "last four quarters",
  twelve_months_to_sept_30: "12 months to Sept 30",
}

const usd = (v: string | number) => `$${Number(v).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`

function threshold(r: ExposureRow): string {
  const t = r.threshold
  if (t.sales === null && t.transactions === null) return "—"
  const parts = [
    t.sales !== null ? usd(t.sales).replace(".00", "") : null,
    t.transactions !== null ? `${t.transactions} orders` : null,
  ].filter(Boolean)
  return parts.join(t.combine === "and" ? " and " : " or ")
}

/** Settings → Sales Tax → Nexus: where the store is about to owe sales tax (src/nexus). */
const NexusPage = () => {
  const { data, error, loading, reload } = useLoad(() => api<{ nexus: NexusReport }>("/admin/sales-tax/nexus"), [])
  const [saveError, setSaveError] = useState<string | null>(null)
  const { busy, run } = useBusy(setSaveError)
  const report = data?.nexus

  const mark = (state: string, registered: boolean) =>
    run(state, async () => {
      setSaveError(null)
      await api("/admin/sales-tax/nexus/registrations", { method: "POST", body: { state, registered } })
      await reload()
    })

  return (
    <Page
      testId="nexus-page"
      title="Economic nexus"
      error={error ?? saveError ?? undefined}
      subtitle={
        <>
          <Text size="small" className="text-ui-fg-subtle">
            Your US sales into each state over that state's measurement period, against the threshold above which a remote seller must
            register and collect there. The service only taxes where you are registered.
          </Text>
          {report ? (
            <Text size="xsmall" className="text-ui-fg-muted" data-testid="nexus-as-of">
              Thresholds as of {report.asOf} (each row names its source; override them with the option nexus.thresholds). Computed{" "}
              {report.today}.
            </Text>
          ) : null}
        </>
      }
      actions={
        <>
          <NavLink to="/settings/sales-tax">Sales Tax</NavLink>
          <Button size="small" variant="secondary" isLoading={loading} onClick={() => reload()}>
            Refresh
          </Button>
        </>
      }
    >
      {report && report.unresolved.some((u) => u.transactions > 0) ? (
        <Container className="px-6 py-4" data-testid="nexus-unresolved">
          <Text size="small">
            US orders whose state could not be read from the address, or shipped to a territory or APO/FPO ZIP (counted in no state):{" "}
            {report.unresolved.map((u) => `${u.window.label}: ${u.transactions} orders, ${usd(u.sales)}`).join(" · ")}
          </Text>
        </Container>
      ) : null}
      {report && report.notUsd.some((u) => u.byCurrency.length > 0) ? (
        <Container className="px-6 py-4" data-testid="nexus-not-usd">
          <Text size="small">
            US orders not in USD (not counted in the states above; convert them to check the thresholds):{" "}
            {report.notUsd
              .filter((u) => u.byCurrency.length > 0)
              .map(
                (u) =>
                  `${u.window.label}: ${u.byCurrency.map((c) => `${c.transactions} orders, ${c.currency} ${Number(c.sales).toFixed(2)}`).join(", ")}`,
              )
              .join(" · ")}
          </Text>
        </Container>
      ) : null}
      {report ? (
        <Container className="overflow-x-auto p-0">
          <Table data-testid="nexus-table">
            <Table.Header>
              <Table.Row>
                <Table.HeaderCell>State</Table.HeaderCell>
                <Table.HeaderCell>Status</Table.HeaderCell>
                <Table.HeaderCell className="text-right">Sales</Table.HeaderCell>
                <Table.HeaderCell className="text-right">Orders</Table.HeaderCell>
                <Table.HeaderCell>Threshold</Table.HeaderCell>
                <Table.HeaderCell className="text-right">Reached</Table.HeaderCell>
                <Table.HeaderCell>Registered</Table.HeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {report.rows.map((r) => (
                <Table.Row key={r.state} data-testid={`nexus-row-${r.state}`} data-status={r.status}>
                  <Table.Cell>
                    <Text size="small" weight="plus">
                      {r.name}
                    </Text>
                    <Text size="xsmall" className="text-ui-fg-muted" title={r.source}>
                      {r.window.label === PERIOD[r.threshold.period] ? r.window.label : `${r.window.label} · ${PERIOD[r.threshold.period]}`}
                    </Text>
                  </Table.Cell>
                  <Table.Cell>
                    <Badge size="2xsmall" color={STATUS[r.status].color}>
                      {STATUS[r.status].label}
                    </Badge>
                  </Table.Cell>
                  <Table.Cell className="text-right">{usd(r.sales)}</Table.Cell>
                  <Table.Cell className="text-right">{r.transactions}</Table.Cell>
                  <Table.Cell>{threshold(r)}</Table.Cell>
                  <Table.Cell className="text-right" data-testid={`nexus-share-${r.state}`}>
                    {r.status === "no_sales_tax" ? "—" : `${Math.floor(r.share * 100)} %`}
                  </Table.Cell>
                  <Table.Cell>
                    {r.status === "no_sales_tax" ? null : (
                      <Button
                        size="small"
                        variant={r.registered ? "secondary" : "transparent"}
                        isLoading={busy === r.state}
                        onClick={() => mark(r.state, !r.registered)}
                        data-testid={`nexus-register-${r.state}`}
                      >
                        {r.registered ? "Registered ✓" : "Mark registered"}
                      </Button>
                    )}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table>
        </Container>
      ) : null}
    </Page>
  )
}

export default NexusPage
