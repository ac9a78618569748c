/** The customer certificates widget's pure helpers: the connection selector. */
import type { ConnectionView } from "../../setup/routes"

/** `?connection_id=<id>` for a chosen connection other than the default; "" for the default. */
export function connectionQuery(connectionId: string | null): string {
  return connectionId ? `?connection_id=${encodeURIComponent(connectionId)}` : ""
}

/** A connection as the selector names it: its sales channels (the default says so). */
export function connectionLabel(c: ConnectionView): string {
  const names = c.salesChannels.map((s) => s.name ?? s.id).join(", ")
  return c.isDefault ? `Default connection${names ? ` (${names})` : ""}` : names || c.connectionId
}
