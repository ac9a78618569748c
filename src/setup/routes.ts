// The routes of Settings → Sales Tax: the overview, the setup checklist and its fixes, the
// connections (keys never returned) and a connection's ping.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { getBackgroundClient } from "../service/client-factory"
import { allConnections, connectionById, optionsOn } from "../service/connections"
import { graph } from "../query"
import { getPluginOptions } from "../options"
import { bodyOf, parseOr400, sendError, serviceText } from "../http/answers"
import { notAField } from "../http/validate"
import { applySetupFix, FixBusy, FixNotOffered, readChecklist } from "./medusa"
import { check, settingsOverview } from "./settings"
import { SETUP_FIX_IDS, type SetupItem } from "./types"

export type AdminConnectionsResponse = Awaited<ReturnType<typeof connectionViews>>
export type ConnectionView = AdminConnectionsResponse["connections"][number]

export const AdminSetupFixBody = z
  .object({ fix: z.enum(SETUP_FIX_IDS, { error: `must be one of ${SETUP_FIX_IDS.join(", ")}` }) })
  .catchall(notAField)

const PingConnectionBody = z
  .object({ connection_id: z.string({ error: "connection_id is required" }).min(1, "connection_id is required").max(200) })
  .catchall(notAField)

const checklist = (items: SetupItem[]) => ({ items, done: items.every((i) => i.done) })
export type AdminSetupResponse = ReturnType<typeof checklist>
export type AdminSetupFixResponse = AdminSetupResponse & { applied: string }

/** GET /admin/sales-tax/settings */
export async function getSettings(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  res.json(await settingsOverview(req.scope))
}

/** GET /admin/sales-tax/setup */
export async function getSetup(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  res.json(checklist(await readChecklist(req.scope)))
}

/** POST /admin/sales-tax/setup/fix { fix } */
export async function postSetupFix(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const { fix } = bodyOf(req, AdminSetupFixBody)
  try {
    const { applied, items } = await applySetupFix(req.scope, fix)
    res.json({ applied, ...checklist(items) } satisfies AdminSetupFixResponse)
  } catch (e) {
    if (e instanceof FixNotOffered)
      return sendError(res, 409, MedusaError.Types.NOT_ALLOWED, e.message, [{ location: "body.fix", message: e.message, value: fix }])
    if (e instanceof FixBusy) return sendError(res, 409, MedusaError.Types.CONFLICT, e.message)
    throw e
  }
}

/** Each connection with its sales channels (the default: those no other names), its key never shown. */
async function connectionViews(scope: MedusaRequest["scope"]) {
  const options = getPluginOptions(scope)
  const everyChannel = { entity: "sales_channel", fields: ["id", "name"], pagination: { take: 1000, skip: 0 } }
  const channels = await graph<{ id: string; name?: string | null }>(scope, everyChannel)
  const names = new Map(channels.map((c) => [c.id, c.name ?? null]))
  const configured = new Set(options.connections.flatMap((c) => c.salesChannelIds))
  return {
    connections: allConnections(options).map((c) => ({
      connectionId: c.connectionId,
      apiKey: "****" as const,
      isDefault: c.isDefault,
      salesChannels: (c.isDefault ? channels.map((x) => x.id).filter((id) => !configured.has(id)) : c.salesChannelIds).map((id) => ({
        id,
        name: names.get(id) ?? null,
        exists: names.has(id),
      })),
    })),
  }
}

/** GET /admin/sales-tax/connections */
export async function getConnections(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  res.json(await connectionViews(req.scope))
}

/** POST /admin/sales-tax/connections/ping { connection_id } */
export async function postPing(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const body = parseOr400(req, res, PingConnectionBody, "body")
  if (!body) return
  const options = getPluginOptions(req.scope)
  const conn = connectionById(options, body.connection_id)
  if (!conn) return sendError(res, 404, MedusaError.Types.NOT_FOUND, `No connection ${body.connection_id} in the plugin options`)
  const client = getBackgroundClient(optionsOn(options, conn))
  const scrub = (t: string) => serviceText(req.scope, t)
  res.json({ connectionId: conn.connectionId, ping: await check(() => client.ping(), scrub) })
}
