// The fix of a needs_attention filing: its reason, and "re-quote with a corrected address, then
// file" — the service quotes the order's lines for the state and ZIP given, and that tax is filed.
// None was collected from the shopper: the merchant owes what is filed.
import { Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { api, errorMessage, fieldErrorsOf } from "../lib/api"
import { hasFailedWork, money, type FilingView, type RequoteView } from "../lib/filing"
import { Btn, LabeledInput, Note } from "./ui"

export function AttentionFix({ f, path, onDone }: { f: FilingView; path: string; onDone: () => Promise<void> }) {
  const [state, setState] = useState(f.snapshot?.destination?.state ?? "")
  const [zip, setZip] = useState(f.snapshot?.destination?.zip ?? "")
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const submit = async () => {
    setBusy(true)
    setErrors({})
    try {
      const out = await api<RequoteView>(`${path}/requote`, { method: "POST", body: { state, zip } })
      if (hasFailedWork(out.filing)) toast.error(`Re-quoted, not filed yet: ${out.filing.last_error ?? "see the record"}`)
      else toast.success(`Filed for ${out.destination?.state} ${out.destination?.zip}: the merchant owes ${money(out.owed_tax)}`)
      await onDone()
    } catch (e) {
      const fe = fieldErrorsOf(e)
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
      <Note tone="error" size="small" className="break-words" testId="filing-attention-reason">
        {f.last_error}
      </Note>
      {/^currency [A-Z]{3}:/.test(f.last_error ?? "") ? (
        <Note tone="subtle">The plugin files USD only: file this order at the service by hand.</Note>
      ) : (
        <>
          <Note tone="subtle">
            Fix: re-quote with a corrected address, then file. No tax was collected from the customer: the tax the service computes for this
            address is filed, and the merchant owes it.
          </Note>
          <div className="flex flex-wrap items-end gap-2">
            <LabeledInput
              id="filing-attention-state"
              label="State"
              labelSize="xsmall"
              width={88}
              value={state}
              placeholder="TX"
              onChange={setState}
            />
            <LabeledInput
              id="filing-attention-zip"
              label="ZIP"
              labelSize="xsmall"
              width={120}
              value={zip}
              placeholder="78701"
              onChange={setZip}
            />
            <Btn busy={busy} onClick={submit} testId="filing-requote">
              Re-quote and file
            </Btn>
          </div>
          {errors.state || errors.zip ? (
            <Note tone="error" testId="filing-attention-errors">
              {[errors.state, errors.zip].filter(Boolean).join("; ")}
            </Note>
          ) : null}
        </>
      )}
    </div>
  )
}
