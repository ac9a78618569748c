import { Badge, Button, Text } from "@medusajs/ui"
import { useState } from "react"
import { api, errorMessage } from "../lib/api"
import type { AdminConnectionsResponse, CheckResult } from "../../http/types"
import { useLoad } from "../lib/use-load"
import { DataTable, SettingsSection } from "./ui"

type PingAnswer = { connectionId: string; ping: CheckResult<{ message: string }> }

/**
 * Settings → Sales Tax → Connections: the default connection and each of option
 * `connections`, their sales channels, the key as **** (never the key), and a "Test connection"
 * button per connection (the service's ping on it).
 */
export function ConnectionsSection() {
  const { data, error } = useLoad(() => api<AdminConnectionsResponse>("/admin/sales-tax/connections"), [])
  const [pings, setPings] = useState<Record<string, CheckResult<{ message: string }> | { error: string; ok: false } | undefined>>({})
  const [busy, setBusy] = useState<string | null>(null)

  const test = async (connectionId: string) => {
    setBusy(connectionId)
    const ping = await api<PingAnswer>("/admin/sales-tax/connections/ping", { method: "POST", body: { connection_id: connectionId } }).then(
      (out) => out.ping,
      (e: unknown) => ({ ok: false as const, error: errorMessage(e) }),
    )
    setPings((p) => ({ ...p, [connectionId]: ping }))
    setBusy(null)
  }

  return (
    <SettingsSection
      testId="settings-connections"
      title="Connections"
      subtitle={"Each sales channel's carts and orders are quoted, filed and refunded on its connection."}
      error={error}
    >
      {data ? (
        <DataTable
          headers={["Connection", "API key", "Sales channels", "Test"]}
          rows={data.connections}
          rowKey={(c) => c.connectionId}
          rowTestId={(c) => `connection-${c.connectionId}`}
          cellClassName=""
          cells={(c) => {
            const p = pings[c.connectionId]
            return [
              <div key="id" className="flex items-center gap-x-2">
                <Text size="xsmall" className="font-mono">
                  {c.connectionId}
                </Text>
                {c.isDefault ? (
                  <Badge size="2xsmall" color="blue">
                    default
                  </Badge>
                ) : null}
              </div>,
              <Text key="key" size="xsmall" className="font-mono">
                {c.apiKey}
              </Text>,
              <div key="channels" className="flex flex-wrap gap-1" data-testid={`connection-channels-${c.connectionId}`}>
                {c.salesChannels.length === 0 ? (
                  <Text size="xsmall" className="text-ui-fg-muted">
                    {c.isDefault ? "every other channel" : "none"}
                  </Text>
                ) : (
                  c.salesChannels.map((s) => (
                    <Badge key={s.id} size="2xsmall" color={s.exists ? "grey" : "red"} title={s.id}>
                      {s.exists ? (s.name ?? s.id) : `${s.id} (no such channel)`}
                    </Badge>
                  ))
                )}
              </div>,
              <div key="test" className="flex items-center gap-x-2">
                <Button
                  size="small"
                  variant="secondary"
                  isLoading={busy === c.connectionId}
                  onClick={() => test(c.connectionId)}
                  data-testid={`connection-test-${c.connectionId}`}
                >
                  Test connection
                </Button>
                {p ? (
                  <span data-testid={`connection-result-${c.connectionId}`} className="flex items-center gap-x-1">
                    <Badge size="2xsmall" color={p.ok ? "green" : "red"}>
                      {p.ok ? "valid" : "failing"}
                    </Badge>
                    <Text size="xsmall" className="text-ui-fg-subtle">
                      {"result" in p && p.ok ? `${p.result?.message ?? "ok"} · ${p.durationMs} ms` : (p.error ?? "")}
                    </Text>
                  </span>
                ) : null}
              </div>,
            ]
          }}
        />
      ) : null}
    </SettingsSection>
  )
}
