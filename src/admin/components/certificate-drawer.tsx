import { Button, Checkbox, Drawer, Input, Label, Select, Text, Textarea, toast } from "@medusajs/ui"
import { useState } from "react"
import { BUSINESS_TYPES, EXEMPTION_REASONS, US_STATES } from "../../service/contract"
import { REASONS_WITHOUT_ID_NUMBER, emptyForm, humanize, toBody, validate, type FormState, type StateRow } from "../lib/certificate-form"
import { Field } from "./field"
import { AdminApiError, api, errorMessage } from "../lib/api"
import type { AdminCertificateResponse, AdminCertificatesResponse } from "../../http/types"

/** The customer page's "Add certificate" button and its drawer: the form, validated, then POSTed. */
export function CreateCertificateDrawer({
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
