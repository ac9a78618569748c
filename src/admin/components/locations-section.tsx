import { Badge, Text } from "@medusajs/ui"
import { api } from "../lib/api"
import type { AdminLocationsResponse, LocationView } from "../../http/types"
import { useLoad } from "../lib/use-load"
import { DataTable, SettingsSection } from "./ui"

const addressText = (a: LocationView["origin"]) => [a.line1, a.line2, a.city, `${a.state} ${a.zip}`].filter(Boolean).join(", ")

/**
 * Settings → Sales Tax → Ship-from locations: each stock location with the address its
 * lines are quoted and filed from, or the fallback origin (the `origin` option) and why. A
 * location outside the US that ships to no US address is "not used for US orders" (neutral).
 */
export function LocationsSection() {
  const { data, error } = useLoad(() => api<AdminLocationsResponse>("/admin/sales-tax/locations"), [])
  return (
    <SettingsSection
      testId="settings-locations"
      title="Ship-from locations"
      subtitle={"Each line is taxed from the stock location that fulfils it."}
      error={error}
    >
      {data ? (
        <DataTable
          headers={["Location", "Origin used", "Sales channels"]}
          rows={data.locations}
          rowKey={(l) => l.id}
          rowTestId={(l) => `location-${l.id}`}
          cellClassName=""
          cells={(l) => [
            <Text key="name" size="small">
              {l.name ?? l.id}
            </Text>,
            <div key="origin" className="flex flex-col gap-y-1">
              <div className="flex items-center gap-x-2">
                <Badge size="2xsmall" color={l.notForUs ? "grey" : l.fallback ? "orange" : "green"}>
                  {l.notForUs ? "not used for US orders" : l.fallback ? "fallback origin" : "own address"}
                </Badge>
                {l.notForUs ? null : <Text size="xsmall">{addressText(l.origin)}</Text>}
              </div>
              {l.reason ? (
                <Text size="xsmall" className="text-ui-fg-subtle" data-testid={`location-reason-${l.id}`}>
                  {l.reason}
                </Text>
              ) : null}
            </div>,
            <div key="channels" className="flex flex-wrap gap-1">
              {l.salesChannels.map((c) => (
                <Badge key={c.id} size="2xsmall" color="grey">
                  {c.name ?? c.id}
                </Badge>
              ))}
            </div>,
          ]}
        />
      ) : null}
    </SettingsSection>
  )
}
