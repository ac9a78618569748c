// The customer page's "Add certificate" drawer: the form (lib/certificate-form's fields), checked with the
// route's schema, then POSTed; the server's located errors are shown under their fields the same way.
import { Button, Checkbox, Drawer, Label, toast } from "@medusajs/ui"
import { useState } from "react"
import { US_STATES } from "../../../packages/contract/src/index"
import { needsIdNumber } from "../../checkout/exemptions/certificate-rules"
import { emptyForm, FIELDS, toBody, validate, type FormState, type StateRow, type TextField } from "../lib/certificate-form"
import { errorMessage, post } from "../lib/api"
import { useSubmit } from "../lib/hooks"
import type { AdminCertificatesResponse } from "../../certificates/shopper"
import { Btn, ErrorText, Field, Note } from "./ui"

type Spec = Omit<Parameters<typeof Field>[0], "id" | "value" | "onChange"> & { name: string }

export function CreateCertificateDrawer(props: { customer: AdminCertificatesResponse["customer"]; path: string; onCreated: () => void }) {
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
      await post(props.path, toBody(form)).catch((e: unknown) => {
        setFormError(errorMessage(e))
        throw e
      })
      toast.success("Exemption certificate created")
      setOpen(false)
      setForm(emptyForm(defaultName))
      props.onCreated()
    })
  }

  /** A field of the form: its input's id is `st-<name>`, its select's test id `select-<name>`, its message's `error-<name>`. */
  const formField = (spec: Spec, value: string, onChange: (v: string) => void) => (
    <Field
      key={spec.name}
      {...spec}
      id={`st-${spec.name}`}
      small
      value={value}
      onChange={onChange}
      testId={spec.options ? `select-${spec.name}` : undefined}
      error={errors[spec.name]}
      errorTestId={`error-${spec.name}`}
    />
  )
  const field = (spec: Spec & { key: TextField }) => formField(spec, form[spec.key], (v) => set(spec.key, v))
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
            "key" in row ? (
              field(row)
            ) : (
              <div key={row[0].key} className="grid grid-cols-3 gap-x-3">
                {row.map(field)}
              </div>
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
                {formField(
                  { name: `states[${i}].abbreviation`, label: `State ${i + 1}`, options: US_STATES, placeholder: "State" },
                  row.abbreviation,
                  (v) => setRow(i, { abbreviation: v }),
                )}
                {formField(
                  {
                    name: `states[${i}].identificationNumber`,
                    label: needsIdNumber(form.reason) ? "Identification number" : "Identification number (optional)",
                  },
                  row.identificationNumber,
                  (v) => setRow(i, { identificationNumber: v }),
                )}
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
