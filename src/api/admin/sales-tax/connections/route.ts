import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { allConnections } from "../../../../service/connections"
import { graph } from "../../../../query"
import type { AdminConnectionsResponse, ConnectionView } from "../../../../http/types"
import { handle, pluginOptions } from "../../../../http/answers"

/**
 * GET /admin/sales-tax/connections: the default connection and each of option `connections`, with
 * their sales channels (name, whether it exists). The default lists the channels no other
 * connection names. Keys are never returned: `apiKey` is "****".
 */
export const GET = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const options = pluginOptions(req.scope)
  const channels = await graph<{ id: string; name?: string | null }>(req.scope, {
    entity: "sales_channel",
    fields: ["id", "name"],
    pagination: { take: 1000, skip: 0 },
  })
  const names = new Map(channels.map((c) => [c.id, c.name ?? null]))
  const configured = new Set(options.connections.flatMap((c) => c.salesChannelIds))
  const connections: ConnectionView[] = allConnections(options).map((c) => ({
    connectionId: c.connectionId,
    apiKey: "****",
    isDefault: c.isDefault,
    salesChannels: (c.isDefault ? channels.map((x) => x.id).filter((id) => !configured.has(id)) : c.salesChannelIds).map((id) => ({
      id,
      name: names.get(id) ?? null,
      exists: names.has(id),
    })),
  }))
  const out: AdminConnectionsResponse = { connections }
  res.json(out)
})
