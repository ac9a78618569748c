import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminCustomer, DetailWidgetProps } from "@medusajs/framework/types"
import { Text, toast, usePrompt } from "@medusajs/ui"
import { useState, type ReactNode } from "react"
import { CreateCertificateDrawer } from "../components/certificate-drawer"
import { type BadgeColor, Btn, Choice, DataTable, Field, Note, Section, Strong, Tag } from "../components/ui"
import { api, post } from "../lib/api"
import { connectionLabel, connectionQuery, humanize } from "../lib/certificate-form"
import { useApi, useBusy, useLoad, useSubmit } from "../lib/hooks"
import type { AdminCertificatesResponse } from "../../certificates/shopper"
import type { AdminConnectionsResponse } from "../../setup/routes"

type ListedCertificate = AdminCertificatesResponse["certificates"][number]

const STATUS_BADGES: Record<ListedCertificate["status"], [label: string, color: BadgeColor]> = {
  active: ["Active", "green"],
  pending: ["Awaiting review", "orange"],
  rejected: ["Rejected", "red"],
  used: ["Used", "blue"],
  disabled: ["Disabled", "grey"],
}

/** A certificate's row: states, reason, who made it, status, then its actions. */
function certificateCells(c: ListedCertificate, query: string, onChanged: () => void): ReactNode[] {
  const [label, color] = STATUS_BADGES[c.status]
  return [
    <>
      <Strong>
        {c.states.map((s) => (s.identificationNumber ? `${s.abbreviation} (${s.identificationNumber})` : s.abbreviation)).join(", ")}
      </Strong>
      <Note tone="subtle">{`${c.customerName}${c.singlePurchase ? " · single purchase" : ""}`}</Note>
    </>,
    <>
      <Text size="small">{humanize(c.reason)}</Text>
      <Note tone="subtle">{humanize(c.customerBusinessType)}</Note>
    </>,
    <>
      <Note>{new Date(c.createdDate).toLocaleDateString()}</Note>
      <Note tone="subtle" testId="certificate-created-by">
        {c.createdBy && (c.createdBy === "customer" ? "by the customer" : "by staff")}
      </Note>
    </>,
    <>
      <Tag color={color} testId="certificate-status">
        {label}
      </Tag>
      <Note tone="subtle" testId="certificate-used-by">
        {c.status === "used" && c.usedByOrderId && `by order ${c.usedByOrderId}`}
      </Note>
      <Note tone="subtle" testId="certificate-rejection-reason">
        {c.status === "rejected" && c.review?.rejectionReason}
      </Note>
    </>,
    <CertificateActions c={c} query={query} onChanged={onChanged} />,
  ]
}

function CertificateActions({ c, query, onChanged }: { c: ListedCertificate; query: string; onChanged: () => void }) {
  const prompt = usePrompt()
  const { busy, run } = useBusy<"disable" | "approve">()
  const reject = useSubmit()
  const [rejecting, setRejecting] = useState(false)
  const [reason, setReason] = useState("")
  const path = `/admin/sales-tax/certificates/${encodeURIComponent(c.certificateId)}`

  const disable = async () => {
    const ok = await prompt({
      title: "Disable this certificate?",
      description: `Orders will be taxed in ${c.states.map((s) => s.abbreviation).join(", ")} again. The certificate stays on record as disabled. Orders already filed under it stay filed as they were charged.`,
      confirmText: "Disable",
      cancelText: "Cancel",
    })
    if (!ok) return
    await run("disable", async () => {
      await api(`${path}${query}`, { method: "DELETE" })
      toast.success("Certificate disabled")
      onChanged()
    })
  }
  const review = (body: { decision: "approve" } | { decision: "reject"; reason: string }) =>
    post(`${path}/review${query}`, body).then(() => {
      toast.success(body.decision === "approve" ? "Certificate approved: it exempts from the customer's next cart" : "Certificate rejected")
      onChanged()
    })
  const confirmReject = () =>
    reason.trim()
      ? reject.submit(() => review({ decision: "reject", reason: reason.trim() }).then(() => (setRejecting(false), setReason(""))))
      : reject.setErrors({ reason: "Say why: the customer sees this reason" })
  const reasonError = reject.errors.reason ?? Object.values(reject.errors)[0]

  return (
    <div className="flex flex-col items-end gap-y-1">
      {c.status === "pending" ? (
        <div className="flex gap-x-1">
          <Btn busy={busy === "approve"} onClick={() => run("approve", () => review({ decision: "approve" }))} testId="certificate-approve">
            Approve
          </Btn>
          <Btn variant="transparent" onClick={() => setRejecting(true)} testId="certificate-reject">
            Reject
          </Btn>
        </div>
      ) : null}
      {rejecting ? (
        <div className="flex flex-col gap-y-1" data-testid="certificate-reject-form">
          <Field
            id="certificate-reject-reason"
            label="Reason the customer sees"
            small
            value={reason}
            onChange={setReason}
            error={reasonError}
            errorTestId="certificate-reject-error"
          />
          <div className="flex gap-x-1">
            <Btn variant="danger" busy={reject.busy} onClick={confirmReject} testId="certificate-reject-confirm">
              Reject
            </Btn>
            <Btn variant="transparent" onClick={() => setRejecting(false)}>
              Cancel
            </Btn>
          </div>
        </div>
      ) : null}
      {c.status === "active" ? (
        <Btn variant="transparent" busy={busy === "disable"} onClick={disable} testId="certificate-disable">
          Disable
        </Btn>
      ) : null}
    </div>
  )
}

/**
 * Customer page: the customer's exemption certificates at the service, to create, review (a shopper's) and disable. With more
 * than one connection, a selector picks the account holding them (each sales channel's live on its connection).
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
          {res ? <CreateCertificateDrawer customer={res.customer} path={path} onCreated={reload} /> : null}
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
