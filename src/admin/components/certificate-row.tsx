// A row of the customer's certificates: states, reason, who made it, status; Approve or Reject
// (with the reason the customer sees) for one awaiting review, Disable (after a prompt) for an active one.
import { Input, Table, Text, toast, usePrompt } from "@medusajs/ui"
import { useState } from "react"
import { humanize } from "../lib/certificate-form"
import { AdminApiError, api } from "../lib/api"
import { useBusy } from "../lib/hooks"
import type { AdminCertificatesResponse } from "../../certificates/shopper"
import { type BadgeColor, Btn, Note, Tag } from "./ui"

export type ListedCertificate = AdminCertificatesResponse["certificates"][number]

const STATUS_BADGES: Record<ListedCertificate["status"], [label: string, color: BadgeColor]> = {
  active: ["Active", "green"],
  pending: ["Awaiting review", "orange"],
  rejected: ["Rejected", "red"],
  used: ["Used", "blue"],
  disabled: ["Disabled", "grey"],
}

export function CertificateRow({ c, query, onChanged }: { c: ListedCertificate; query: string; onChanged: () => void }) {
  const prompt = usePrompt()
  const { busy, run } = useBusy<"disable" | "approve" | "reject">()
  const [rejecting, setRejecting] = useState(false)
  const [reason, setReason] = useState("")
  const [reasonError, setReasonError] = useState<string | null>(null)
  const path = `/admin/sales-tax/certificates/${encodeURIComponent(c.certificateId)}`
  const [label, color] = STATUS_BADGES[c.status]

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

  const review = async (decision: "approve" | "reject") => {
    if (decision === "reject" && !reason.trim()) return setReasonError("Say why: the customer sees this reason")
    setReasonError(null)
    await run(decision, async () => {
      try {
        await api(`${path}/review${query}`, {
          method: "POST",
          body: decision === "approve" ? { decision } : { decision, reason: reason.trim() },
        })
      } catch (e) {
        if (!(e instanceof AdminApiError && e.errors.length)) throw e
        return setReasonError(e.fieldErrors().reason ?? e.message)
      }
      toast.success(decision === "approve" ? "Certificate approved: it exempts from the customer's next cart" : "Certificate rejected")
      setRejecting(false)
      setReason("")
      onChanged()
    })
  }

  const reviewButton = (decision: "approve" | "reject", testId: string) => (
    <Btn
      variant={decision === "approve" ? "secondary" : "danger"}
      busy={busy === decision}
      onClick={() => review(decision)}
      testId={testId}
    >
      {decision === "approve" ? "Approve" : "Reject"}
    </Btn>
  )

  return (
    <Table.Row data-testid={`certificate-${c.certificateId}`} data-status={c.status}>
      <Table.Cell>
        <Text size="small" weight="plus">
          {c.states.map((s) => (s.identificationNumber ? `${s.abbreviation} (${s.identificationNumber})` : s.abbreviation)).join(", ")}
        </Text>
        <Note tone="subtle">{`${c.customerName}${c.singlePurchase ? " · single purchase" : ""}`}</Note>
      </Table.Cell>
      <Table.Cell>
        <Text size="small">{humanize(c.reason)}</Text>
        <Note tone="subtle">{humanize(c.customerBusinessType)}</Note>
      </Table.Cell>
      <Table.Cell>
        <Note>{new Date(c.createdDate).toLocaleDateString()}</Note>
        {c.createdBy ? (
          <Note tone="subtle" testId="certificate-created-by">
            {c.createdBy === "customer" ? "by the customer" : "by staff"}
          </Note>
        ) : null}
      </Table.Cell>
      <Table.Cell>
        <Tag color={color} testId="certificate-status">
          {label}
        </Tag>
        {c.status === "used" && c.usedByOrderId ? (
          <Note tone="subtle" testId="certificate-used-by">
            by order {c.usedByOrderId}
          </Note>
        ) : null}
        {c.status === "rejected" && c.review?.rejectionReason ? (
          <Note tone="subtle" testId="certificate-rejection-reason">
            {c.review.rejectionReason}
          </Note>
        ) : null}
        {rejecting ? (
          <div className="mt-2 flex flex-col gap-y-1" data-testid="certificate-reject-form">
            <Input
              size="small"
              placeholder="Reason the customer sees"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              aria-invalid={!!reasonError}
              data-testid="certificate-reject-reason"
            />
            {reasonError ? (
              <Note tone="error" testId="certificate-reject-error">
                {reasonError}
              </Note>
            ) : null}
            <div className="flex gap-x-1">
              {reviewButton("reject", "certificate-reject-confirm")}
              <Btn variant="transparent" onClick={() => setRejecting(false)}>
                Cancel
              </Btn>
            </div>
          </div>
        ) : null}
      </Table.Cell>
      <Table.Cell className="text-right">
        {c.status === "pending" ? (
          <>
            {reviewButton("approve", "certificate-approve")}
            <Btn variant="transparent" onClick={() => setRejecting(true)} testId="certificate-reject">
              Reject
            </Btn>
          </>
        ) : null}
        {c.status === "active" ? (
          <Btn variant="transparent" busy={busy === "disable"} onClick={disable} testId="certificate-disable">
            Disable
          </Btn>
        ) : null}
      </Table.Cell>
    </Table.Row>
  )
}
