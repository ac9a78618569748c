import { Badge, Button, Input, Table, Text, toast, usePrompt } from "@medusajs/ui"
import type { ReactNode } from "react"
import { useState } from "react"
import { humanize } from "../lib/certificate-form"
import { useBusy } from "./ui"
import { AdminApiError, api } from "../lib/api"
import type { AdminCertificateResponse, AdminCertificatesResponse } from "../../http/types"

type Decision = "approve" | "reject"

/** Approve, or confirm a rejection: the review button, loading while its decision is being sent. */
function ReviewButton({
  decision,
  variant,
  busy,
  onReview,
  testId,
  children,
}: {
  decision: Decision
  variant: "secondary" | "danger"
  busy: null | "disable" | Decision
  onReview: (decision: Decision) => void
  testId: string
  children: ReactNode
}) {
  return (
    <Button size="small" variant={variant} isLoading={busy === decision} onClick={() => onReview(decision)} data-testid={testId}>
      {children}
    </Button>
  )
}

export type ListedCertificate = AdminCertificatesResponse["certificates"][number]

const STATUS_BADGES: Record<ListedCertificate["status"], { label: string; color: "green" | "orange" | "red" | "blue" | "grey" }> = {
  active: { label: "Active", color: "green" },
  pending: { label: "Awaiting review", color: "orange" },
  rejected: { label: "Rejected", color: "red" },
  used: { label: "Used", color: "blue" },
  disabled: { label: "Disabled", color: "grey" },
}

export function CertificateRow({ c, query, onChanged }: { c: ListedCertificate; query: string; onChanged: () => void }) {
  const prompt = usePrompt()
  const { busy, run } = useBusy<"disable" | "approve" | "reject">()
  const [rejecting, setRejecting] = useState(false)
  const [reason, setReason] = useState("")
  const [reasonError, setReasonError] = useState<string | null>(null)
  const status = c.status ?? (c.disabledAt ? "disabled" : "active")
  const badge = STATUS_BADGES[status]
  const disable = async () => {
    const ok = await prompt({
      title: "Disable this certificate?",
      description: `Orders will be taxed in ${c.states.map((s) => s.abbreviation).join(", ")} again. The certificate stays on record as disabled. Orders already filed under it stay filed as they were charged.`,
      confirmText: "Disable",
      cancelText: "Cancel",
    })
    if (!ok) return
    await run("disable", async () => {
      await api<AdminCertificateResponse>(`/admin/sales-tax/certificates/${encodeURIComponent(c.certificateId)}${query}`, {
        method: "DELETE",
      })
      toast.success("Certificate disabled")
      onChanged()
    })
  }
  const review = async (decision: "approve" | "reject") => {
    if (decision === "reject" && !reason.trim()) {
      setReasonError("Say why: the customer sees this reason")
      return
    }
    setReasonError(null)
    await run(decision, async () => {
      try {
        await api<AdminCertificateResponse>(`/admin/sales-tax/certificates/${encodeURIComponent(c.certificateId)}/review${query}`, {
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
  return (
    <Table.Row data-testid={`certificate-${c.certificateId}`} data-status={status}>
      <Table.Cell>
        <Text size="small" weight="plus">
          {c.states.map((s) => (s.identificationNumber ? `${s.abbreviation} (${s.identificationNumber})` : s.abbreviation)).join(", ")}
        </Text>
        <Text size="xsmall" className="text-ui-fg-subtle">
          {c.customerName}
          {c.singlePurchase ? " · single purchase" : ""}
        </Text>
      </Table.Cell>
      <Table.Cell>
        <Text size="small">{humanize(c.reason)}</Text>
        <Text size="xsmall" className="text-ui-fg-subtle">
          {humanize(c.customerBusinessType)}
        </Text>
      </Table.Cell>
      <Table.Cell>
        <Text size="xsmall">{new Date(c.createdDate).toLocaleDateString()}</Text>
        {c.createdBy ? (
          <Text size="xsmall" className="text-ui-fg-subtle" data-testid="certificate-created-by">
            {c.createdBy === "customer" ? "by the customer" : "by staff"}
          </Text>
        ) : null}
      </Table.Cell>
      <Table.Cell>
        <Badge size="2xsmall" color={badge.color} data-testid="certificate-status">
          {badge.label}
        </Badge>
        {status === "used" && c.usedByOrderId ? (
          <Text size="xsmall" className="text-ui-fg-subtle" data-testid="certificate-used-by">
            by order {c.usedByOrderId}
          </Text>
        ) : null}
        {status === "rejected" && c.review?.rejectionReason ? (
          <Text size="xsmall" className="text-ui-fg-subtle" data-testid="certificate-rejection-reason">
            {c.review.rejectionReason}
          </Text>
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
              <Text size="xsmall" className="text-ui-fg-error" data-testid="certificate-reject-error">
                {reasonError}
              </Text>
            ) : null}
            <div className="flex gap-x-1">
              <ReviewButton decision="reject" variant="danger" busy={busy} onReview={review} testId="certificate-reject-confirm">
                Reject
              </ReviewButton>
              <Button size="small" variant="transparent" onClick={() => setRejecting(false)}>
                Cancel
              </Button>
            </div>
          </div>
        ) : null}
      </Table.Cell>
      <Table.Cell className="text-right">
        {status === "pending" ? (
          <>
            <ReviewButton decision="approve" variant="secondary" busy={busy} onReview={review} testId="certificate-approve">
              Approve
            </ReviewButton>
            <Button size="small" variant="transparent" onClick={() => setRejecting(true)} data-testid="certificate-reject">
              Reject
            </Button>
          </>
        ) : null}
        {status === "active" ? (
          <Button size="small" variant="transparent" isLoading={busy === "disable"} onClick={disable} data-testid="certificate-disable">
            Disable
          </Button>
        ) : null}
      </Table.Cell>
    </Table.Row>
  )
}
