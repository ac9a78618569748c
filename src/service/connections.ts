// Connections per sales channel: the options' own `connectionId` / `apiKey` by default, option
// `connections` for some channels. A filed order keeps its connection: its refunds and voids follow it.
import type { PluginOptions } from "../options"

/** One connection as the plugin uses it: the options with this connection's id and key. */
export interface ResolvedConnection {
  connectionId: string
  apiKey: string
  /** the default connection (the options' own) or one of `connections` */
  isDefault: boolean
  /** the sales channels configured on it (the default: those of no other connection) */
  salesChannelIds: string[]
}

type ConnOptions = Pick<PluginOptions, "connectionId" | "apiKey"> & { connections?: PluginOptions["connections"] }

/** Pure: every connection of the options, the default first. */
export function allConnections(o: ConnOptions): ResolvedConnection[] {
  return [
    { connectionId: o.connectionId, apiKey: o.apiKey, isDefault: true, salesChannelIds: [] },
    ...(o.connections ?? []).map((c) => ({
      connectionId: c.connectionId,
      apiKey: c.apiKey,
      isDefault: false,
      salesChannelIds: [...c.salesChannelIds],
    })),
  ]
}

/** Pure: the connection of a sales channel (the default for none, or a channel no connection names). */
export function connectionForChannel(o: ConnOptions, salesChannelId: string | null | undefined): ResolvedConnection {
  const all = allConnections(o)
  return (salesChannelId && all.find((c) => !c.isDefault && c.salesChannelIds.includes(salesChannelId))) || all[0]!
}

/** Pure: a configured connection by id (undefined / null: the default), or undefined when none has that id. */
export function connectionById(o: ConnOptions, connectionId: string | null | undefined): ResolvedConnection | undefined {
  return allConnections(o).find((c) => (connectionId ? c.connectionId === connectionId : c.isDefault))
}

/** The options as a client of `connection` sees them: its id and key in place of the default's. */
export function optionsOn<T extends ConnOptions>(o: T, connection: Pick<ResolvedConnection, "connectionId" | "apiKey">): T {
  if (connection.connectionId === o.connectionId && connection.apiKey === o.apiKey) return o
  return { ...o, connectionId: connection.connectionId, apiKey: connection.apiKey }
}

export function optionsForChannel<T extends ConnOptions>(o: T, salesChannelId: string | null | undefined): T {
  return optionsOn(o, connectionForChannel(o, salesChannelId))
}

/** Thrown when a record names a connection the options no longer have. */
export class UnknownConnectionError extends Error {
  constructor(readonly connectionId: string) {
    super(
      `sales-tax: connection ${connectionId} is not configured any more (option connections): put it back to refund or void what was filed on it`,
    )
    this.name = "UnknownConnectionError"
  }
}

/** The options of a connection by id (the default for none); throws UnknownConnectionError for an unknown id. */
export function optionsForConnection<T extends ConnOptions>(o: T, connectionId: string | null | undefined): T {
  const c = connectionById(o, connectionId)
  if (!c) throw new UnknownConnectionError(connectionId!)
  return optionsOn(o, c)
}

/** Every API key of the options (to scrub from stored errors). */
export function allApiKeys(o: ConnOptions): string[] {
  return allConnections(o).map((c) => c.apiKey)
}
