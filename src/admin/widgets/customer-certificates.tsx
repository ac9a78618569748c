import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminCustomer, DetailWidgetProps } from "@medusajs/framework/types"
import { Container, Heading, Select, Table, Text } from "@medusajs/ui"
import { useState } from "react"
import { CertificateRow, type ListedCertificate } from "../components/certificate-row"
import { CreateCertificateDrawer } from "../components/certificate-drawer"
import { LoadStatus } from "../components/ui"
import { api } from "../lib/api"
import { connectionLabel, connectionQuery } from "../lib/connections"
import type { AdminCertificatesResponse, AdminConnectionsResponse } from "../../http/types"
import { useLoad } from "../lib/use-load"

/**
 * Customer page: exemption certificates at the Sales Tax Service, create and disable; review the
 * ones the customer submitted from the storefront (approve, or reject with a reason the customer
 * sees); single-purchase certificates show the order that used them. With more
 * than one connection (option `connections`), a selector picks the account (each sales channel's
 * certificates live on its connection); the default connection first.
 */
const CustomerCertificatesWidget = ({ data }: DetailWidgetProps<AdminCustomer>) => {
  const [connectionId, setConnectionId] = useState<string | null>(null)
  // the selector's list; without it (an older server, an error) the default connection is used
  const { data: conns } = useLoad(() => api<AdminConnectionsResponse>("/admin/sales-tax/connections").catch(() => null), [])
  const connections = conns?.connections ?? []
  const query = connectionQuery(connections.find((c) => c.connectionId === connectionId && !c.isDefault)?.connectionId ?? null)
  const path = `/admin/sales-tax/customers/${encodeURIComponent(data.id)}/certificates${query}`
  const { data: res, error, loading, reload } = useLoad(() => api<AdminCertificatesResponse>(path), [path])
  const count = (st: ListedCertificate["status"]) =>
    res?.certificates.filter((c) => (c.status ?? (c.disabledAt ? "disabled" : "active")) === st).length ?? 0
  const pending = count("pending")
  return (
    <Container className="divide-y p-0" data-testid="sales-tax-certificates">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h2">Tax exemption certificates</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            {res
              ? `${count("active")} active${pending ? `, ${pending} awaiting review` : ""}, ${res.certificates.length - count("active") - pending} disabled, rejected or used`
              : "Certificates held at the Sales Tax Service"}
          </Text>
        </div>
        <div className="flex items-center gap-x-2">
          {connections.length > 1 ? (
            <Select value={connectionId ?? connections[0]!.connectionId} onValueChange={setConnectionId}>
              <Select.Trigger data-testid="certificate-connection" aria-label="Sales Tax Service connection">
                <Select.Value />
              </Select.Trigger>
              <Select.Content>
                {connections.map((c) => (
                  <Select.Item key={c.connectionId} value={c.connectionId}>
                    {connectionLabel(c)}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select>
          ) : null}
          {res ? <CreateCertificateDrawer customer={res.customer} query={query} onCreated={reload} /> : null}
        </div>
      </div>
      <LoadStatus loading={loading && !res} error={error} />
      {res && res.certificates.length === 0 ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle">
          This customer has no exemption certificate.
        </Text>
      ) : null}
      {res && res.certificates.length > 0 ? (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>States</Table.HeaderCell>
              <Table.HeaderCell>Reason / business</Table.HeaderCell>
              <Table.HeaderCell>Created</Table.HeaderCell>
              <Table.HeaderCell>Status</Table.HeaderCell>
              <Table.HeaderCell />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {res.certificates.map((c) => (
              <CertificateRow key={c.certificateId} c={c} query={query} onChanged={reload} />
            ))}
          </Table.Body>
        </Table>
      ) : null}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "customer.details.after", id: "medusa-sales-tax:customer-certificates" })
export default CustomerCertificatesWidget
