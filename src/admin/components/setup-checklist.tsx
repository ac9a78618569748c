import { CheckCircleSolid, ExclamationCircle } from "@medusajs/icons"
import { Badge, Button, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { Link } from "react-router-dom"
import { api, errorMessage } from "../lib/api"
import type { AdminSetupFixResponse, AdminSetupResponse, SetupItemView } from "../../http/types"
import { useLoad } from "../lib/use-load"
import { SettingsSection } from "./ui"

/**
 * Settings → Sales Tax → Setup: what the store needs to quote US sales tax (GET
 * /admin/sales-tax/setup), each item done or with the one action that fixes it: a button where
 * the fix is unambiguous (POST /admin/sales-tax/setup/fix), else what to do and a link to where.
 * The same list as `medusa exec …/sales-tax-setup.js`.
 */
export function SetupChecklist() {
  const { data, error, reload } = useLoad(() => api<AdminSetupResponse>("/admin/sales-tax/setup"), [])
  const [items, setItems] = useState<SetupItemView[] | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const shown = items ?? data?.items ?? null

  const fix = async (id: string) => {
    setBusy(id)
    try {
      const out = await api<AdminSetupFixResponse>("/admin/sales-tax/setup/fix", { method: "POST", body: { fix: id } })
      setItems(out.items)
      toast.success(`Sales tax setup: ${out.applied}`)
    } catch (e) {
      toast.error(errorMessage(e))
      setItems(null)
      await reload()
    } finally {
      setBusy(null)
    }
  }

  const left = shown ? shown.filter((i) => !i.done).length : 0
  return (
    <SettingsSection
      testId="settings-setup"
      title="Setup"
      subtitle={shown ? (left ? `${left} of ${shown.length} left before US orders are taxed` : "Ready: US orders are taxed") : ""}
      error={error}
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
                  <Badge size="2xsmall" color={i.done ? "green" : "orange"}>
                    {i.done ? "done" : "to do"}
                  </Badge>
                </div>
                <Text size="xsmall" className="text-ui-fg-subtle break-words" data-testid={`setup-detail-${i.id}`}>
                  {i.detail}
                </Text>
                {!i.done && i.help ? (
                  <Text size="xsmall" data-testid={`setup-help-${i.id}`}>
                    {i.help.text}{" "}
                    {i.help.href ? (
                      <Link to={i.help.href} className="text-ui-fg-interactive hover:underline">
                        Open
                      </Link>
                    ) : null}
                  </Text>
                ) : null}
              </div>
              {!i.done && i.fix ? (
                <Button
                  size="small"
                  variant="secondary"
                  isLoading={busy === i.fix.id}
                  disabled={busy !== null}
                  onClick={() => fix(i.fix!.id)}
                  data-testid={`setup-fix-${i.fix.id}`}
                >
                  {i.fix.label}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </SettingsSection>
  )
}
