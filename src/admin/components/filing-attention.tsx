// The fix of a needs_attention filing: its reason, and "re-quote with a corrected address, then
// file" — the service quotes the order's lines for the state and ZIP given, and that tax is filed.
// None was collected from the shopper: the merchant owes what is filed.
import { Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { post } from "../lib/api"
import { hasFailedWork, money, type FilingView, type RequoteView } from "../lib/filing"
import { useSubmit } from "../lib/hooks"
import { Btn, Field, Note } from "./ui"

export function AttentionFix({ f, path, onDone }: { f: FilingView; path: string; onDone: () => Promise<void> }) {
  const [to, setTo] = useState({ state: f.snapshot?.destination?.state ?? "", zip: f.snapshot?.destination?.zip ?? "" })
  const { busy, errors, submit } = useSubmit()
  const requote = () =>
    submit(async () => {
      const out = await post<RequoteView>(`${path}/requote`, to)
      if (hasFailedWork(out.filing)) toast.error(`Re-quoted, not filed yet: ${out.filing.last_error ?? "see the record"}`)
      else toast.success(`Filed for ${out.destination?.state} ${out.destination?.zip}: the merchant owes ${money(out.owed_tax)}`)
      await onDone()
    })
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
            {(
              [
                ["state", "State", 88, "TX"],
                ["zip", "ZIP", 120, "78701"],
              ] as const
            ).map(([k, label, width, placeholder]) => (
              <Field
                key={k}
                id={`filing-attention-${k}`}
                {...{ label, width, placeholder }}
                small
                value={to[k]}
                onChange={(v) => setTo((t) => ({ ...t, [k]: v }))}
              />
            ))}
            <Btn busy={busy} onClick={requote} testId="filing-requote">
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
