// The customer page's "Add certificate" button and its drawer: the form (from the field list
// below), validated with the contract's schema, then POSTed; the server's located errors are
// shown under their fields the same way.
import { Button, Checkbox, Drawer, Label, toast } from "@medusajs/ui"
import { useState } from "react"
import { BUSINESS_TYPES, EXEMPTION_REASONS, US_STATES } from "../../service/contract"
import { needsIdNumber } from "../../checkout/exemptions/certificate-rules"
import { emptyForm, humanize, toBody, validate, type FormState, type StateRow, type TextField } from "../lib/certificate-form"
import { errorMessage, post } from "../lib/api"
import { useSubmit } from "../lib/hooks"
import type { AdminCertificatesResponse } from "../../certificates/shopper"
import { Btn, ErrorText, Field, Note } from "./ui"

type Spec = Omit<Parameters<typeof Field>[0], "id" | "value" | "onChange"> & { name: string }

const humanized = (values: readonly string[]) => values.map((v) => [v, humanize(v)] as const)
const ADDRESS: TextField[] = ["line1", "line2", "city", "state", "zip"]
const f = (key: TextField, label: string, more: Partial<Spec> = {}) => ({
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

/** A field of the form: its input's id is `st-<name>`, its select's test id `select-<name>`, its message's `error-<name>`. */
const FormField = ({
  spec,
  errors,
  ...props
}: {
  spec: Spec
  value: string
  onChange: (v: string) => void
  errors: Record<string, string>
}) => (
  <Field
    {...spec}
    {...props}
    id={`st-${spec.name}`}
    small
    testId={spec.options ? `select-${spec.name}` : undefined}
    error={errors[spec.name]}
    errorTestId={`error-${spec.name}`}
  />
)

export function CreateCertificateDrawer(props: { customer: AdminCertificatesResponse["customer"]; query: string; onCreated: () => void }) {
  const { customer } = props
  const [open, setOpen] = useState(false)
  const defaultName = customer.companyName || customer.name || ""
  const [form, setForm] = useState<FormState>(() => emptyForm(defaultName))
  const [formError, setFormError] = useState<string | null>(null)
  const { busy, errors, setErrors, submit } = useSubmit(setFormError)
  const set = <K extends keyof FormState>(k: K, v: FormState[K]) => setForm((f) => ({ ...f, [k]: v }))
  const setStates = (states: StateRow[]) => set("states", states)
  const setRow = (i: number, patch: Partial<StateRow>) => setStates(form.states.map((s, j) => (j === i ? { ...s, ...patch } : s)))

  const save = () => {
    const v = validate(form)
    setFormError(null)
    if (Object.keys(v).length) return setErrors(v)
    return submit(async () => {
      await post(`/admin/sales-tax/customers/${encodeURIComponent(customer.id)}/certificates${props.query}`, toBody(form)).catch(
        (e: unknown) => {
          setFormError(errorMessage(e))
          throw e
        },
      )
      toast.success("Exemption certificate created")
      setOpen(false)
      setForm(emptyForm(defaultName))
      props.onCreated()
    })
  }

  const field = (spec: Spec & { key: TextField }) => (
    <FormField key={spec.key} spec={spec} value={form[spec.key]} onChange={(v) => set(spec.key, v)} errors={errors} />
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
          {FIELDS.map((row) =>
            Array.isArray(row) ? (
              <div key={row[0]!.key} className="grid grid-cols-3 gap-x-3">
                {row.map(field)}
              </div>
            ) : (
              field(row)
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
                  errors={errors}
                />
                <FormField
                  spec={{
                    name: `states[${i}].identificationNumber`,
                    label: needsIdNumber(form.reason) ? "Identification number" : "Identification number (optional)",
                  }}
                  value={row.identificationNumber}
                  onChange={(v) => setRow(i, { identificationNumber: v })}
                  errors={errors}
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
          <Btn variant="primary" busy={busy} onClick={save} testId="certificate-save">
            Save certificate
          </Btn>
        </Drawer.Footer>
      </Drawer.Content>
    </Drawer>
  )
}
