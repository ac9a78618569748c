// Settings → Sales Tax → Setup: what the store needs to quote US sales tax (GET
// /admin/sales-tax/setup), each item done or with the one action that fixes it: a button where the
// fix is unambiguous (POST /admin/sales-tax/setup/fix), else what to do and a link to where. The
// same list as `medusa exec …/sales-tax-setup.js`.
import { CheckCircleSolid, ExclamationCircle } from "@medusajs/icons"
import { Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { Link } from "react-router-dom"
import { post } from "../lib/api"
import { useApi, useBusy } from "../lib/hooks"
import type { AdminSetupFixResponse, AdminSetupResponse } from "../../setup/routes"
import type { SetupItem } from "../../setup/types"
import { Btn, Note, Section, Tag } from "./ui"

export function SetupChecklist() {
  const load = useApi<AdminSetupResponse>("/admin/sales-tax/setup")
  const [items, setItems] = useState<SetupItem[] | null>(null)
  // a failed fix: its message, then the list as the store has it now
  const { busy, run } = useBusy((m) => {
    toast.error(m)
    setItems(null)
    void load.reload()
  })
  const shown = items ?? load.data?.items ?? null

  const fix = (id: string) =>
    run(id, async () => {
      const out = await post<AdminSetupFixResponse>("/admin/sales-tax/setup/fix", { fix: id })
      setItems(out.items)
      toast.success(`Sales tax setup: ${out.applied}`)
    })

  const left = shown ? shown.filter((i) => !i.done).length : 0
  return (
    <Section
      testId="settings-setup"
      title="Setup"
      aside={shown ? (left ? `${left} of ${shown.length} left before US orders are taxed` : "Ready: US orders are taxed") : ""}
      load={load}
    >
      {shown ? (
        <ul className="flex flex-col divide-y" data-testid="setup-items" data-done={left === 0 ? "true" : "false"}>
          {shown.map((i) => (
            <li
              key={i.id}
              className="flex items-start gap-x-3 px-6 py-3"
              data-testid={`setup-${i.id}`}
              data-state={i.done ? "done" : "todo"}
            >
              <span className="mt-0.5">
                {i.done ? (
                  <CheckCircleSolid className="text-ui-tag-green-icon" />
                ) : (
                  <ExclamationCircle className="text-ui-tag-orange-icon" />
                )}
              </span>
              <div className="flex min-w-0 flex-1 flex-col gap-y-1">
                <div className="flex items-center gap-x-2">
                  <Text size="small" weight="plus">
                    {i.title}
                  </Text>
                  <Tag color={i.done ? "green" : "orange"}>{i.done ? "done" : "to do"}</Tag>
                </div>
                <Note tone="subtle" className="break-words" testId={`setup-detail-${i.id}`}>
                  {i.detail}
                </Note>
                {!i.done && i.help ? (
                  <Note testId={`setup-help-${i.id}`}>
                    {i.help.text}{" "}
                    {i.help.href ? (
                      <Link to={i.help.href} className="text-ui-fg-interactive hover:underline">
                        Open
                      </Link>
                    ) : null}
                  </Note>
                ) : null}
              </div>
              {!i.done && i.fix ? (
                <Btn busy={busy === i.fix.id} disabled={busy !== null} onClick={() => fix(i.fix!.id)} testId={`setup-fix-${i.fix.id}`}>
                  {i.fix.label}
                </Btn>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  )
}
