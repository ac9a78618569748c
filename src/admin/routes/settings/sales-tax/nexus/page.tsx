import { Container, Text } from "@medusajs/ui"
import { post } from "../../../../lib/api"
import { useApi, useBusy } from "../../../../lib/hooks"
import { type BadgeColor, Btn, DataTable, NavLink, Note, Page, Strong, Tag } from "../../../../components/ui"
import type { NexusReport } from "../../../../../nexus/medusa"
import type { ExposureRow, ExposureStatus } from "../../../../../nexus/exposure"

const STATUS: Record<ExposureStatus, [label: string, color: BadgeColor]> = {
  over: ["Past threshold — not registered", "red"],
  near: ["Past 80 %", "orange"],
  below: ["Below 80 %", "grey"],
  registered: ["Registered", "green"],
  no_sales_tax: ["No state sales tax", "grey"],
}

const PERIOD: Record<ExposureRow["threshold"]["period"], string> = {
  previous_or_current_year: "previous or current calendar year",
  previous_year: "previous calendar year",
  trailing_12_months: "last 12 months",
  four_quarters: "last four quarters",
  twelve_months_to_sept_30: "12 months to Sept 30",
}

const usd = (v: string | number) => `$${Number(v).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`

function threshold({ threshold: t }: ExposureRow): string {
  const parts = [t.sales !== null ? usd(t.sales).replace(".00", "") : null, t.transactions !== null ? `${t.transactions} orders` : null]
  return parts.filter(Boolean).join(t.combine === "and" ? " and " : " or ") || "—"
}

/** Settings → Sales Tax → Nexus: where the store is about to owe sales tax (src/nexus), each state with Mark registered. */
const NexusPage = () => {
  const load = useApi<{ nexus: NexusReport }>("/admin/sales-tax/nexus")
  const { busy, run, error: saveError } = useBusy(null)
  const report = load.data?.nexus
  const mark = (state: string, registered: boolean) =>
    run(state, async () => {
      await post("/admin/sales-tax/nexus/registrations", { state, registered })
      await load.reload()
    })

  // US orders counted in no state: their state could not be read, or they are not in USD
  const orders = (n: number, sales: string) => `${n} orders, ${sales}`
  const inCurrency = (c: { currency: string; sales: string; transactions: number }) =>
    orders(c.transactions, `${c.currency} ${Number(c.sales).toFixed(2)}`)
  const apart: [testId: string, lead: string, parts: string[]][] = report
    ? [
        [
          "nexus-unresolved",
          "US orders whose state could not be read from the address, or shipped to a territory or APO/FPO ZIP (counted in no state)",
          report.unresolved.some((u) => u.transactions > 0)
            ? report.unresolved.map((u) => `${u.window.label}: ${orders(u.transactions, usd(u.sales))}`)
            : [],
        ],
        [
          "nexus-not-usd",
          "US orders not in USD (not counted in the states above; convert them to check the thresholds)",
          report.notUsd.filter((u) => u.byCurrency.length > 0).map((u) => `${u.window.label}: ${u.byCurrency.map(inCurrency).join(", ")}`),
        ],
      ]
    : []

  return (
    <Page
      testId="nexus-page"
      title="Economic nexus"
      load={load}
      error={saveError}
      subtitle={
        <>
          <Note tone="subtle" size="small">
            Your US sales into each state over that state's measurement period, against the threshold above which a remote seller must
            register and collect there. The service only taxes where you are registered.
          </Note>
          <Note tone="muted" testId="nexus-as-of">
            {report &&
              `Thresholds as of ${report.asOf} (each row names its source; override them with the option nexus.thresholds). Computed ${report.today}.`}
          </Note>
        </>
      }
      actions={<NavLink to="/settings/sales-tax">Sales Tax</NavLink>}
    >
      {apart.map(([testId, lead, parts]) =>
        parts.length ? (
          <Container key={testId} className="px-6 py-4" data-testid={testId}>
            <Text size="small">{`${lead}: ${parts.join(" · ")}`}</Text>
          </Container>
        ) : null,
      )}
      {report ? (
        <Container className="overflow-x-auto p-0">
          <DataTable
            testId="nexus-table"
            headers={["State", "Status", "Sales", "Orders", "Threshold", "Reached", "Registered"]}
            right={[2, 3, 5]}
            rows={report.rows}
            rowKey={(r) => r.state}
            rowTestId={(r) => `nexus-row-${r.state}`}
            rowStatus={(r) => r.status}
            cells={(r) => [
              <>
                <Strong>{r.name}</Strong>
                <Text size="xsmall" className="text-ui-fg-muted" title={r.source}>
                  {r.window.label === PERIOD[r.threshold.period] ? r.window.label : `${r.window.label} · ${PERIOD[r.threshold.period]}`}
                </Text>
              </>,
              <Tag color={STATUS[r.status][1]}>{STATUS[r.status][0]}</Tag>,
              usd(r.sales),
              r.transactions,
              threshold(r),
              <span data-testid={`nexus-share-${r.state}`}>{r.status === "no_sales_tax" ? "—" : `${Math.floor(r.share * 100)} %`}</span>,
              r.status === "no_sales_tax" ? null : (
                <Btn
                  variant={r.registered ? "secondary" : "transparent"}
                  busy={busy === r.state}
                  onClick={() => mark(r.state, !r.registered)}
                  testId={`nexus-register-${r.state}`}
                >
                  {r.registered ? "Registered ✓" : "Mark registered"}
                </Btn>
              ),
            ]}
          />
        </Container>
      ) : null}
    </Page>
  )
}

export default NexusPage
