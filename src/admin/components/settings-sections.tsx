// Sections of Settings → Sales Tax that load on their own: the setup checklist (each item done, or
// its fix: a button where it is unambiguous, else what to do and a link), the connections (each
// with a "Test connection": the service's ping on it) and the ship-from locations with their origins.
import { CheckCircleSolid, ExclamationCircle } from "@medusajs/icons"
import { toast } from "@medusajs/ui"
import { useState } from "react"
import { Link } from "react-router-dom"
import { errorMessage, post } from "../lib/api"
import { useApi, useBusy } from "../lib/hooks"
import type { AdminConnectionsResponse, AdminSetupFixResponse, AdminSetupResponse } from "../../setup/routes"
import type { AdminSettingsResponse } from "../../setup/settings"
import type { SetupItem } from "../../setup/types"
import type { AdminLocationsResponse, LocationView } from "../../checkout/origins/origin-locations"
import { Btn, DataTable, Note, Section, Strong, Tag } from "./ui"

type Ping = AdminSettingsResponse["connection"]["ping"]

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
                  <Strong>{i.title}</Strong>
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

export function ConnectionsSection() {
  const load = useApi<AdminConnectionsResponse>("/admin/sales-tax/connections")
  const [pings, setPings] = useState<Record<string, Ping>>({})
  const { busy, run } = useBusy()
  const test = (connectionId: string) =>
    run(connectionId, async () => {
      const ping = await post<{ ping: Ping }>("/admin/sales-tax/connections/ping", { connection_id: connectionId }).then(
        (out) => out.ping,
        (e: unknown): Ping => ({ ok: false, durationMs: 0, error: errorMessage(e) }),
      )
      setPings((p) => ({ ...p, [connectionId]: ping }))
    })

  return (
    <Section
      testId="settings-connections"
      title="Connections"
      aside="Each sales channel's carts and orders are quoted, filed and refunded on its connection."
      load={load}
    >
      {load.data ? (
        <DataTable
          headers={["Connection", "API key", "Sales channels", "Test"]}
          rows={load.data.connections}
          rowKey={(c) => c.connectionId}
          rowTestId={(c) => `connection-${c.connectionId}`}
          cells={(c) => {
            const p = pings[c.connectionId]
            return [
              <div className="flex items-center gap-x-2">
                <Note className="font-mono">{c.connectionId}</Note>
                {c.isDefault ? <Tag color="blue">default</Tag> : null}
              </div>,
              <Note className="font-mono">{c.apiKey}</Note>,
              <div className="flex flex-wrap gap-1" data-testid={`connection-channels-${c.connectionId}`}>
                {c.salesChannels.length === 0 ? <Note tone="muted">{c.isDefault ? "every other channel" : "none"}</Note> : null}
                {c.salesChannels.map((s) => (
                  <Tag key={s.id} color={s.exists ? "grey" : "red"} title={s.id}>
                    {s.exists ? (s.name ?? s.id) : `${s.id} (no such channel)`}
                  </Tag>
                ))}
              </div>,
              <div className="flex items-center gap-x-2">
                <Btn busy={busy === c.connectionId} onClick={() => test(c.connectionId)} testId={`connection-test-${c.connectionId}`}>
                  Test connection
                </Btn>
                {p ? (
                  <span data-testid={`connection-result-${c.connectionId}`} className="flex items-center gap-x-1">
                    <Tag color={p.ok ? "green" : "red"}>{p.ok ? "valid" : "failing"}</Tag>
                    <Note tone="subtle">{p.ok ? `${p.result?.message ?? "ok"} · ${p.durationMs} ms` : (p.error ?? "")}</Note>
                  </span>
                ) : null}
              </div>,
            ]
          }}
        />
      ) : null}
    </Section>
  )
}

const addressText = (a: LocationView["origin"]) => [a.line1, a.line2, a.city, `${a.state} ${a.zip}`].filter(Boolean).join(", ")

export function LocationsSection() {
  const load = useApi<AdminLocationsResponse>("/admin/sales-tax/locations")
  return (
    <Section
      testId="settings-locations"
      title="Ship-from locations"
      aside="Each line is taxed from the stock location that fulfils it."
      load={load}
    >
      {load.data ? (
        <DataTable
          headers={["Location", "Origin used", "Sales channels"]}
          rows={load.data.locations}
          rowKey={(l) => l.id}
          rowTestId={(l) => `location-${l.id}`}
          cells={(l) => [
            <Note size="small">{l.name ?? l.id}</Note>,
            <div className="flex flex-col gap-y-1">
              <div className="flex items-center gap-x-2">
                <Tag color={l.notForUs ? "grey" : l.fallback ? "orange" : "green"}>
                  {l.notForUs ? "not used for US orders" : l.fallback ? "fallback origin" : "own address"}
                </Tag>
                {l.notForUs ? null : <Note>{addressText(l.origin)}</Note>}
              </div>
              <Note tone="subtle" testId={`location-reason-${l.id}`}>
                {l.reason}
              </Note>
            </div>,
            <div className="flex flex-wrap gap-1">
              {l.salesChannels.map((c) => (
                <Tag key={c.id} color="grey">
                  {c.name ?? c.id}
                </Tag>
              ))}
            </div>,
          ]}
        />
      ) : null}
    </Section>
  )
}
