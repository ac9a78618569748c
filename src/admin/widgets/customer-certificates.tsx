import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminCustomer, DetailWidgetProps } from "@medusajs/framework/types"
import {
  Badge,
  Button,
  Checkbox,
  Container,
  Drawer,
  Heading,
  Input,
  Label,
  Select,
  Table,
  Text,
  Textarea,
  toast,
  usePrompt,
} from "@medusajs/ui"
import { useState } from "react"
import { BUSINESS_TYPES, EXEMPTION_REASONS, US_STATES } from "../../service/contract"
import { REASONS_WITHOUT_ID_NUMBER, emptyForm, humanize, toBody, validate, type FormState, type StateRow } from "../lib/certificate-form"
import { Field } from "../components/field"
import { AdminApiError, api, errorMessage } from "../lib/api"
import type { AdminCertificateResponse, AdminCertificatesResponse, AdminConnectionsResponse, ConnectionView } from "../../api/types"
import { useLoad } from "../lib/use-load"

/** `?connection_id=<id>` for a chosen connection other than the default; "" for the default. */
function connectionQuery(connectionId: string | null): string {
  return connectionId ? `?connection_id=${encodeURIComponent(connectionId)}` : ""
}

/** A connection as the selector names it: its sales channels (the default says so). */
function connectionLabel(c: ConnectionView): string {
  const names = c.salesChannels.map((s) => s.name ?? s.id).join(", ")
  return c.isDefault ? `Default connection${names ? ` (${names})` : ""}` : names || c.connectionId
}

function CreateCertificateDrawer({
  customer,
  query,
  onCreated,
}: {
  customer: AdminCertificatesResponse["customer"]
  /** the chosen connection's query string */
  query: string
  onCreated: () => void
}) {
  const [open, setOpen] = useState(false)
  const defaultName = customer.companyName || customer.name || ""
  const [form, setForm] = useState<FormState>(() => emptyForm(defaultName))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [submitting, setSubmitting] = useState(false)
  const [formError, setFormError] = useState<string | null>(null)
  const set = <K extends keyof FormState>(k: K, v: FormState[K]) => setForm((f) => ({ ...f, [k]: v }))
  const setRow = (i: number, patch: Partial<StateRow>) =>
    setForm((f) => ({ ...f, states: f.states.map((s, j) => (j === i ? { ...s, ...patch } : s)) }))

  const submit = async () => {
    const v = validate(customer.id, form)
    setErrors(v)
    setFormError(null)
    if (Object.keys(v).length) return
    setSubmitting(true)
    try {
      await api<AdminCertificateResponse>(`/admin/sales-tax/customers/${encodeURIComponent(customer.id)}/certificates${query}`, {
        method: "POST",
        body: toBody(form),
      })
      toast.success("Exemption certificate created")
      setOpen(false)
      setForm(emptyForm(defaultName))
      onCreated()
    } catch (e) {
      if (e instanceof AdminApiError && e.errors.length) {
        setErrors(e.fieldErrors())
        setFormError(e.message)
      } else setFormError(errorMessage(e))
    } finally {
      setSubmitting(false)
    }
  }

  const sel = (
    name: string,
    value: string,
    onChange: (v: string) => void,
    options: readonly string[],
    placeholder: string,
    label = humanize,
  ) => (
    <Select value={value || undefined} onValueChange={onChange}>
      <Select.Trigger id={`st-${name}`} data-testid={`select-${name}`} aria-invalid={!!errors[name]}>
        <Select.Value placeholder={placeholder} />
      </Select.Trigger>
      <Select.Content>
        {options.map((o) => (
          <Select.Item key={o} value={o}>
            {label(o)}
          </Select.Item>
        ))}
      </Select.Content>
    </Select>
  )

  return (
    <Drawer open={open} onOpenChange={setOpen}>
      <Drawer.Trigger asChild>
        <Button size="small" variant="secondary" data-testid="certificate-add">
          Add certificate
        </Button>
      </Drawer.Trigger>
      <Drawer.Content data-testid="certificate-drawer">
        <Drawer.Header>
          <Drawer.Title>New exemption certificate</Drawer.Title>
        </Drawer.Header>
        <Drawer.Body className="flex flex-col gap-y-4 overflow-y-auto">
          <Field label="Name on the certificate" name="customerName" error={errors.customerName}>
            <Input
              id="st-customerName"
              size="small"
              value={form.customerName}
              onChange={(e) => set("customerName", e.target.value)}
              aria-invalid={!!errors.customerName}
            />
          </Field>
          <Field label="Address line 1" name="address.line1" error={errors["address.line1"]}>
            <Input
              id="st-address.line1"
              size="small"
              value={form.line1}
              onChange={(e) => set("line1", e.target.value)}
              aria-invalid={!!errors["address.line1"]}
            />
          </Field>
          <Field label="Address line 2 (optional)" name="address.line2" error={errors["address.line2"]}>
            <Input id="st-address.line2" size="small" value={form.line2} onChange={(e) => set("line2", e.target.value)} />
          </Field>
          <div className="grid grid-cols-3 gap-x-3">
            <Field label="City" name="address.city" error={errors["address.city"]}>
              <Input
                id="st-address.city"
                size="small"
                value={form.city}
                onChange={(e) => set("city", e.target.value)}
                aria-invalid={!!errors["address.city"]}
              />
            </Field>
            <Field label="State" name="address.state" error={errors["address.state"]}>
              {sel(
                "address.state",
                form.state,
                (v) => set("state", v),
                US_STATES,
                "State",
                (s) => s,
              )}
            </Field>
            <Field label="ZIP" name="address.zip" error={errors["address.zip"]}>
              <Input
                id="st-address.zip"
                size="small"
                placeholder="94105"
                value={form.zip}
                onChange={(e) => set("zip", e.target.value)}
                aria-invalid={!!errors["address.zip"]}
              />
            </Field>
          </div>
          <Field label="Reason for exemption" name="reason" error={errors.reason}>
            {sel("reason", form.reason, (v) => set("reason", v), EXEMPTION_REASONS, "Choose a reason")}
          </Field>
          <Field
            label="Reason description"
            name="reasonDescription"
            error={errors.reasonDescription}
            hint="Required when the reason is Other"
          >
            <Textarea id="st-reasonDescription" value={form.reasonDescription} onChange={(e) => set("reasonDescription", e.target.value)} />
          </Field>
          <Field label="Business type" name="customerBusinessType" error={errors.customerBusinessType}>
            {sel(
              "customerBusinessType",
              form.customerBusinessType,
              (v) => set("customerBusinessType", v),
              BUSINESS_TYPES,
              "Choose a business type",
            )}
          </Field>
          <Field
            label="Business description"
            name="customerBusinessDescription"
            error={errors.customerBusinessDescription}
            hint="Required when the business type is Other"
          >
            <Textarea
              id="st-customerBusinessDescription"
              value={form.customerBusinessDescription}
              onChange={(e) => set("customerBusinessDescription", e.target.value)}
            />
          </Field>
          <div className="flex flex-col gap-y-2">
            <Label size="xsmall" weight="plus">
              States where the exemption applies
            </Label>
            {errors.states ? (
              <Text size="xsmall" className="text-ui-fg-error" data-testid="error-states">
                {errors.states}
              </Text>
            ) : null}
            {form.states.map((row, i) => (
              <div
                key={i}
                className="grid items-start gap-x-2"
                style={{ gridTemplateColumns: "1fr 2fr auto" }}
                data-testid={`state-row-${i}`}
              >
                <Field label={`State ${i + 1}`} name={`states[${i}].abbreviation`} error={errors[`states[${i}].abbreviation`]}>
                  {sel(
                    `states[${i}].abbreviation`,
                    row.abbreviation,
                    (v) => setRow(i, { abbreviation: v }),
                    US_STATES,
                    "State",
                    (s) => s,
                  )}
                </Field>
                <Field
                  label={
                    REASONS_WITHOUT_ID_NUMBER.includes(form.reason as (typeof REASONS_WITHOUT_ID_NUMBER)[number])
                      ? "Identification number (optional)"
                      : "Identification number"
                  }
                  name={`states[${i}].identificationNumber`}
                  error={errors[`states[${i}].identificationNumber`]}
                >
                  <Input
                    id={`st-states[${i}].identificationNumber`}
                    size="small"
                    value={row.identificationNumber}
                    onChange={(e) => setRow(i, { identificationNumber: e.target.value })}
                  />
                </Field>
                <Button
                  size="small"
                  variant="transparent"
                  className="mt-5"
                  disabled={form.states.length === 1}
                  onClick={() =>
                    set(
                      "states",
                      form.states.filter((_, j) => j !== i),
                    )
                  }
                >
                  Remove
                </Button>
              </div>
            ))}
            <div>
              <Button
                size="small"
                variant="secondary"
                data-testid="state-add"
                onClick={() => set("states", [...form.states, { abbreviation: "", identificationNumber: "" }])}
              >
                Add state
              </Button>
            </div>
          </div>
          <div className="flex items-center gap-x-2">
            <Checkbox id="st-singlePurchase" checked={form.singlePurchase} onCheckedChange={(v) => set("singlePurchase", v === true)} />
            <Label htmlFor="st-singlePurchase" size="small">
              Single purchase only
            </Label>
          </div>
          {formError ? (
            <Text size="small" className="text-ui-fg-error" data-testid="certificate-form-error">
              {formError}
            </Text>
          ) : null}
        </Drawer.Body>
        <Drawer.Footer>
          <Drawer.Close asChild>
            <Button size="small" variant="secondary">
              Cancel
            </Button>
          </Drawer.Close>
          <Button size="small" isLoading={submitting} onClick={submit} data-testid="certificate-save">
            Save certificate
          </Button>
        </Drawer.Footer>
      </Drawer.Content>
    </Drawer>
  )
}

type ListedCertificate = AdminCertificatesResponse["certificates"][number]

const STATUS_BADGES: Record<ListedCertificate["status"], { label: string; color: "green" | "orange" | "red" | "blue" | "grey" }> = {
  active: { label: "Active", color: "green" },
  pending: { label: "Awaiting review", color: "orange" },
  rejected: { label: "Rejected", color: "red" },
  used: { label: "Used", color: "blue" },
  disabled: { label: "Disabled", color: "grey" },
}

function CertificateRow({ c, query, onChanged }: { c: ListedCertificate; query: string; onChanged: () => void }) {
  const prompt = usePrompt()
  const [busy, setBusy] = useState<null | "disable" | "approve" | "reject">(null)
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
    setBusy("disable")
    try {
      await api<AdminCertificateResponse>(`/admin/sales-tax/certificates/${encodeURIComponent(c.certificateId)}${query}`, {
        method: "DELETE",
      })
      toast.success("Certificate disabled")
      onChanged()
    } catch (e) {
      toast.error(errorMessage(e))
    } finally {
      setBusy(null)
    }
  }
  const review = async (decision: "approve" | "reject") => {
    if (decision === "reject" && !reason.trim()) {
      setReasonError("Say why: the customer sees this reason")
      return
    }
    setBusy(decision)
    setReasonError(null)
    try {
      await api<AdminCertificateResponse>(`/admin/sales-tax/certificates/${encodeURIComponent(c.certificateId)}/review${query}`, {
        method: "POST",
        body: decision === "approve" ? { decision } : { decision, reason: reason.trim() },
      })
      toast.success(decision === "approve" ? "Certificate approved: it exempts from the customer's next cart" : "Certificate rejected")
      setRejecting(false)
      setReason("")
      onChanged()
    } catch (e) {
      if (e instanceof AdminApiError && e.errors.length) setReasonError(e.fieldErrors().reason ?? e.message)
      else toast.error(errorMessage(e))
    } finally {
      setBusy(null)
    }
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
              <Button
                size="small"
                variant="danger"
                isLoading={busy === "reject"}
                onClick={() => review("reject")}
                data-testid="certificate-reject-confirm"
              >
                Reject
              </Button>
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
            <Button
              size="small"
              variant="secondary"
              isLoading={busy === "approve"}
              onClick={() => review("approve")}
              data-testid="certificate-approve"
            >
              Approve
            </Button>
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
      {loading && !res ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle">
          Loading…
        </Text>
      ) : null}
      {error ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-error">
          {error}
        </Text>
      ) : null}
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
