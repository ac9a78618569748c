// The connection an admin request works on: `?connection_id=` (a configured one, else a located 400),
// the default without it (a customer's certificates live on the connection of the channel they buy through).
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import type { SalesTaxClient } from "../service/client"
import { getBackgroundClient } from "../service/client-factory"
import { connectionById, optionsOn, type ResolvedConnection } from "../service/connections"
import { getPluginOptions } from "../options"
import { sendZodError } from "./answers"

/** Pure: the query schema for the configured connection ids. */
export function connectionQuerySchema(ids: readonly string[]) {
  return z.object({
    connection_id: z
      .string({ error: "connection_id must be a string" })
      .min(1, "connection_id must not be empty")
      .max(200, "connection_id is at most 200 characters")
      // one message per bad value: an empty or overlong id is told so above
      .refine((id) => id.length === 0 || id.length > 200 || ids.includes(id), {
        message: `connection_id must be a configured connection (${ids.length} configured)`,
      })
      .optional(),
  })
}

/** The request's connection and its background client; null when `connection_id` is invalid (400 sent). */
export function adminConnection(
  req: MedusaRequest,
  res: MedusaResponse,
): { connection: ResolvedConnection; client: SalesTaxClient } | null {
  const options = getPluginOptions(req.scope)
  const ids = [options.connectionId, ...options.connections.map((c) => c.connectionId)]
  const query = { connection_id: (req.query as Record<string, unknown> | undefined)?.connection_id }
  const parsed = connectionQuerySchema(ids).safeParse(query)
  if (!parsed.success) {
    sendZodError(res, parsed.error, query, "query")
    return null
  }
  const connection = connectionById(options, parsed.data.connection_id)!
  return { connection, client: getBackgroundClient(optionsOn(options, connection)) }
}
