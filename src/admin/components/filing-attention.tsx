import { Button, Input, Label, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { AdminApiError, api, errorMessage } from "../lib/api"
import { hasFailedWork, money, type FilingView, type RequoteView } from "../lib/filing"

/** One small labelled input of the re-quote form (its id is also its test id). */
function AttentionInput({
  id,
  label,
  width,
  value,
  placeholder,
  onChange,
  invalid,
}: {
  id: string
  label: string
  width: number
  value: string
  placeholder: string
  onChange: (value: string) => void
  invalid: boolean
}) {
  return (
    <div className="flex min-w-0 flex-col gap-y-1" style={{ width }}>
      <Label size="xsmall" htmlFor={id}>
        {label}
      </Label>
      <Input
        id={id}
        size="small"
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={invalid}
        data-testid={id}
      />
    </div>
  )
}

/**
 * The fix of a needs_attention filing: its reason, and "re-quote with a corrected
 * address, then file" — the service quotes the order's lines for the state and ZIP given, and that
 * tax is filed. None was collected from the shopper: the merchant owes what is filed.
 */
export function AttentionFix({ f, path, onDone }: { f: FilingView; path: string; onDone: () => Promise<void> }) {
  const [state, setState] = useState(f.snapshot?.destination?.state ?? "")
  const [zip, setZip] = useState(f.snapshot?.destination?.zip ?? "")
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const currency = /^currency [A-Z]{3}:/.test(f.last_error ?? "")
  const submit = async () => {
    setBusy(true)
    setErrors({})
    try {
      const out = await api<RequoteView>(`${path}/requote`, { method: "POST", body: { state, zip } })
      if (hasFailedWork(out.filing)) toast.error(`Re-quoted, not filed yet: ${out.filing.last_error ?? "see the record"}`)
      else toast.success(`Filed for ${out.destination?.state} ${out.destination?.zip}: the merchant owes ${money(out.owed_tax)}`)
      await onDone()
    } catch (e) {
      const fe = e instanceof AdminApiError ? e.fieldErrors() : {}
      setErrors(fe)
      if (!Object.keys(fe).length) toast.error(errorMessage(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="flex flex-col gap-y-2 px-6 py-3" data-testid="filing-attention">
      <Text size="small" weight="plus">
        Needs attention
      </Text>
      <Text size="small" className="break-words text-ui-fg-error" data-testid="filing-attention-reason">
        {f.last_error}
      </Text>
      {currency ? (
        <Text size="xsmall" className="text-ui-fg-subtle">
          The plugin files USD only: file this order at the service by hand.
        </Text>
      ) : (
        <>
          <Text size="xsmall" className="text-ui-fg-subtle">
            Fix: re-quote with a corrected address, then file. No tax was collected from the customer: the tax the service computes for this
            address is filed, and the merchant owes it.
          </Text>
          <div className="flex flex-wrap items-end gap-2">
            <AttentionInput
              id="filing-attention-state"
              label="State"
              width={88}
              value={state}
              placeholder="TX"
              onChange={setState}
              invalid={!!errors.state}
            />
            <AttentionInput
              id="filing-attention-zip"
              label="ZIP"
              width={120}
              value={zip}
              placeholder="78701"
              onChange={setZip}
              invalid={!!errors.zip}
            />
            <Button size="small" variant="secondary" isLoading={busy} onClick={submit} data-testid="filing-requote">
              Re-quote and file
            </Button>
          </div>
          {errors.state || errors.zip ? (
            <Text size="xsmall" className="text-ui-fg-error" data-testid="filing-attention-errors">
              {[errors.state, errors.zip].filter(Boolean).join("; ")}
            </Text>
          ) : null}
        </>
      )}
    </div>
  )
}
