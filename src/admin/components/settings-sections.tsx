// Sections of Settings → Sales Tax that load on their own: the connections (each with its sales
// channels, the key as ****, and a "Test connection" button: the service's ping on it) and the
// ship-from locations (each with the origin its lines are quoted and filed from, or the fallback
// origin and why; one outside the US that ships to no US address is "not used for US orders").
import { useState } from "react"
import { errorMessage, post } from "../lib/api"
import { useApi, useBusy } from "../lib/hooks"
import type { AdminConnectionsResponse } from "../../setup/routes"
import type { CheckResult } from "../../setup/settings"
import type { AdminLocationsResponse, LocationView } from "../../checkout/origins/location-views"
import { Btn, DataTable, Note, Section, Tag } from "./ui"

type Ping = CheckResult<{ message: string }>

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
              {l.reason ? (
                <Note tone="subtle" testId={`location-reason-${l.id}`}>
                  {l.reason}
                </Note>
              ) : null}
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
