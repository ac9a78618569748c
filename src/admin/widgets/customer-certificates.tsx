import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminCustomer, DetailWidgetProps } from "@medusajs/framework/types"
import { useState } from "react"
import { certificateCells } from "../components/certificate-row"
import { CreateCertificateDrawer } from "../components/certificate-drawer"
import { Choice, DataTable, Section } from "../components/ui"
import { api } from "../lib/api"
import { connectionLabel, connectionQuery } from "../lib/connections"
import { useApi, useLoad } from "../lib/hooks"
import type { AdminCertificatesResponse } from "../../certificates/shopper"
import type { AdminConnectionsResponse } from "../../setup/routes"

/**
 * Customer page: exemption certificates at the Sales Tax Service, create and disable; review the
 * ones the customer submitted from the storefront (approve, or reject with a reason the customer
 * sees); single-purchase certificates show the order that used them. With more than one
 * connection (option `connections`), a selector picks the account (each sales channel's
 * certificates live on its connection); the default connection first.
 */
const CustomerCertificatesWidget = ({ data }: DetailWidgetProps<AdminCustomer>) => {
  const [connectionId, setConnectionId] = useState<string | null>(null)
  // the selector's list; without it (an error) the default connection is used
  const { data: conns } = useLoad(() => api<AdminConnectionsResponse>("/admin/sales-tax/connections").catch(() => null), [])
  const connections = conns?.connections ?? []
  const query = connectionQuery(connections.find((c) => c.connectionId === connectionId && !c.isDefault)?.connectionId ?? null)
  const path = `/admin/sales-tax/customers/${encodeURIComponent(data.id)}/certificates${query}`
  const load = useApi<AdminCertificatesResponse>(path)
  const { data: res, reload } = load
  const count = (status: string) => res?.certificates.filter((c) => c.status === status).length ?? 0
  const [active, pending] = [count("active"), count("pending")]
  return (
    <Section
      testId="sales-tax-certificates"
      title="Tax exemption certificates"
      subtitle={
        res
          ? `${active} active${pending ? `, ${pending} awaiting review` : ""}, ${res.certificates.length - active - pending} disabled, rejected or used`
          : "Certificates held at the Sales Tax Service"
      }
      load={load}
      actions={
        <>
          {connections.length > 1 ? (
            <Choice
              value={connectionId ?? connections[0]!.connectionId}
              onChange={setConnectionId}
              options={connections.map((c) => [c.connectionId, connectionLabel(c)] as const)}
              testId="certificate-connection"
              label="Sales Tax Service connection"
            />
          ) : null}
          {res ? <CreateCertificateDrawer customer={res.customer} query={query} onCreated={reload} /> : null}
        </>
      }
    >
      {res ? (
        <DataTable
          empty="This customer has no exemption certificate."
          headers={["States", "Reason / business", "Created", "Status", ""]}
          right={[4]}
          rows={res.certificates}
          rowKey={(c) => c.certificateId}
          rowTestId={(c) => `certificate-${c.certificateId}`}
          rowStatus={(c) => c.status}
          cells={(c) => certificateCells(c, query, reload)}
        />
      ) : null}
    </Section>
  )
}

export const config = defineWidgetConfig({ zone: "customer.details.after", id: "medusa-sales-tax:customer-certificates" })
export default CustomerCertificatesWidget
