// The customer page's "Add certificate" button and its drawer: the form (from the field list
// below), validated with the contract's schema, then POSTed; the server's located errors are
// shown under their fields the same way.
import { Button, Checkbox, Drawer, Input, Label, Textarea, toast } from "@medusajs/ui"
import { useState } from "react"
import { BUSINESS_TYPES, EXEMPTION_REASONS, US_STATES } from "../../service/contract"
import { needsIdNumber } from "../../checkout/exemptions/certificate-rules"
import { emptyForm, humanize, toBody, validate, type FormState, type StateRow, type TextField } from "../lib/certificate-form"
import { AdminApiError, api, errorMessage } from "../lib/api"
import type { AdminCertificatesResponse } from "../../certificates/shopper"
import { Btn, Choice, ErrorText, Note } from "./ui"

interface FieldSpec {
  /** the field's path in the request, as errors name it (its input's id is `st-<name>`) */
  name: string
  label: string
  options?: readonly (string | readonly [string, string])[]
  placeholder?: string
  hint?: string
  multiline?: true
}

const humanized = (values: readonly string[]) => values.map((v) => [v, humanize(v)] as const)
const ADDRESS: TextField[] = ["line1", "line2", "city", "state", "zip"]
const f = (key: TextField, label: string, more: Partial<FieldSpec> = {}) => ({
  key,
  label,
  name: ADDRESS.includes(key) ? `address.${key}` : key,
  ...more,
})

/** The form's text fields and selects in order; a nested list is one row. */
const FIELDS = [
  f("customerName", "Name on the certificate"),
  f("line1", "Address line 1"),
  f("line2", "Address line 2 (optional)"),
  [f("city", "City"), f("state", "State", { options: US_STATES, placeholder: "State" }), f("zip", "ZIP", { placeholder: "94105" })],
  f("reason", "Reason for exemption", { options: humanized(EXEMPTION_REASONS), placeholder: "Choose a reason" }),
  f("reasonDescription", "Reason description", { multiline: true, hint: "Required when the reason is Other" }),
  f("customerBusinessType", "Business type", { options: humanized(BUSINESS_TYPES), placeholder: "Choose a business type" }),
  f("customerBusinessDescription", "Business description", { multiline: true, hint: "Required when the business type is Other" }),
]

/** A labelled field (text, select or text area by its spec) with its hint, or its validation message, underneath. */
function FormField({ spec, value, onChange, error }: { spec: FieldSpec; value: string; onChange: (v: string) => void; error?: string }) {
  const id = `st-${spec.name}`
  return (
    <div className="flex flex-col gap-y-1" data-field={spec.name}>
      <Label size="xsmall" weight="plus" htmlFor={id}>
        {spec.label}
      </Label>
      {spec.options ? (
        <Choice
          id={id}
          testId={`select-${spec.name}`}
          value={value}
          onChange={onChange}
          options={spec.options}
          placeholder={spec.placeholder}
          invalid={!!error}
        />
      ) : spec.multiline ? (
        <Textarea id={id} value={value} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <Input
          id={id}
          size="small"
          placeholder={spec.placeholder}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={!!error}
        />
      )}
      {spec.hint && !error ? <Note tone="muted">{spec.hint}</Note> : null}
      {error ? (
        <Note tone="error" testId={`error-${spec.name}`}>
          {error}
        </Note>
      ) : null}
    </div>
  )
}

export function CreateCertificateDrawer({
  customer,
  query,
  onCreated,
}: {
  customer: AdminCertificatesResponse["customer"]
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
  const setStates = (states: StateRow[]) => set("states", states)
  const setRow = (i: number, patch: Partial<StateRow>) => setStates(form.states.map((s, j) => (j === i ? { ...s, ...patch } : s)))

  const submit = async () => {
    const v = validate(customer.id, form)
    setErrors(v)
    setFormError(null)
    if (Object.keys(v).length) return
    setSubmitting(true)
    try {
      await api(`/admin/sales-tax/customers/${encodeURIComponent(customer.id)}/certificates${query}`, {
        method: "POST",
        body: toBody(form),
      })
      toast.success("Exemption certificate created")
      setOpen(false)
      setForm(emptyForm(defaultName))
      onCreated()
    } catch (e) {
      if (e instanceof AdminApiError && e.errors.length) setErrors(e.fieldErrors())
      setFormError(errorMessage(e))
    } finally {
      setSubmitting(false)
    }
  }

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
          {FIELDS.map((row) =>
            Array.isArray(row) ? (
              <div key={row[0]!.key} className="grid grid-cols-3 gap-x-3">
                {row.map((spec) => (
                  <FormField
                    key={spec.key}
                    spec={spec}
                    value={form[spec.key]}
                    onChange={(v) => set(spec.key, v)}
                    error={errors[spec.name]}
                  />
                ))}
              </div>
            ) : (
              <FormField key={row.key} spec={row} value={form[row.key]} onChange={(v) => set(row.key, v)} error={errors[row.name]} />
            ),
          )}
          <div className="flex flex-col gap-y-2">
            <Label size="xsmall" weight="plus">
              States where the exemption applies
            </Label>
            {errors.states ? (
              <Note tone="error" testId="error-states">
                {errors.states}
              </Note>
            ) : null}
            {form.states.map((row, i) => (
              <div
                key={i}
                className="grid items-start gap-x-2"
                style={{ gridTemplateColumns: "1fr 2fr auto" }}
                data-testid={`state-row-${i}`}
              >
                <FormField
                  spec={{ name: `states[${i}].abbreviation`, label: `State ${i + 1}`, options: US_STATES, placeholder: "State" }}
                  value={row.abbreviation}
                  onChange={(v) => setRow(i, { abbreviation: v })}
                  error={errors[`states[${i}].abbreviation`]}
                />
                <FormField
                  spec={{
                    name: `states[${i}].identificationNumber`,
                    label: needsIdNumber(form.reason) ? "Identification number" : "Identification number (optional)",
                  }}
                  value={row.identificationNumber}
                  onChange={(v) => setRow(i, { identificationNumber: v })}
                  error={errors[`states[${i}].identificationNumber`]}
                />
                <Btn
                  variant="transparent"
                  className="mt-5"
                  disabled={form.states.length === 1}
                  onClick={() => setStates(form.states.filter((_, j) => j !== i))}
                >
                  Remove
                </Btn>
              </div>
            ))}
            <div>
              <Btn testId="state-add" onClick={() => setStates([...form.states, { abbreviation: "", identificationNumber: "" }])}>
                Add state
              </Btn>
            </div>
          </div>
          <div className="flex items-center gap-x-2">
            <Checkbox id="st-singlePurchase" checked={form.singlePurchase} onCheckedChange={(v) => set("singlePurchase", v === true)} />
            <Label htmlFor="st-singlePurchase" size="small">
              Single purchase only
            </Label>
          </div>
          <ErrorText error={formError} testId="certificate-form-error" />
        </Drawer.Body>
        <Drawer.Footer>
          <Drawer.Close asChild>
            <Button size="small" variant="secondary">
              Cancel
            </Button>
          </Drawer.Close>
          <Btn variant="primary" busy={submitting} onClick={submit} testId="certificate-save">
            Save certificate
          </Btn>
        </Drawer.Footer>
      </Drawer.Content>
    </Drawer>
  )
}
