// Shapes of the ids in the plugin's paths and queries: any other id is a located 400 before any query
// or service call (a NUL in PostgreSQL is a 500; `..` at the service a path traversal).
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { excerpt, invalidData, type InputProblem } from "./input-guard"

/** A Medusa id: `<prefix>_` then letters, digits and underscores (ULIDs in practice), 1-64 of them. */
function medusaId(prefixes: readonly string[], what: string, suffix = "") {
  const re = new RegExp(`^(?:${prefixes.join("|")})_[0-9A-Za-z][0-9A-Za-z_]{0,63}${suffix}$`)
  const shown = prefixes.map((p) => `${p}_…`).join(" or ")
  return z.string({ error: `must be ${what} (${shown})` }).regex(re, `must be ${what} (${shown})`)
}

export const ID_SHAPES = {
  product: medusaId(["prod"], "a product id"),
  productType: medusaId(["ptyp"], "a product type id"),
  productCategory: medusaId(["pcat"], "a product category id"),
  customer: medusaId(["cus"], "a customer id"),
  /** An order's, exchange's or claim's id, `~<8 hex>` for a further origin's record. */
  filingOrder: medusaId(["order", "oexc", "claim"], "an order id", "(?:~[0-9a-f]{8})?"),
  /** An entry of the service-call log (Settings → Sales Tax → Activity). */
  callLogEntry: medusaId(["stcl"], "an activity entry id"),
  /** Certificates are the service's: UUIDs (any version: zod's guid). */
  certificate: z.guid({ error: "must be a certificate id (a UUID)" }),
} as const

export type IdShape = keyof typeof ID_SHAPES

/** Checks one path parameter against a shape; the located error or undefined. */
export function checkParam(name: string, value: unknown, shape: IdShape): InputProblem | undefined {
  const r = ID_SHAPES[shape].safeParse(value)
  if (r.success) return undefined
  return { location: `path.${name}`, message: `${name} ${r.error.issues[0]?.message ?? "is not valid"}`, value: excerpt(value) }
}

/** Route middleware: each named path parameter must have its shape, else the located 400 (nothing looked up). */
export function validateParams(shapes: Record<string, IdShape>) {
  return (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): void => {
    for (const [name, shape] of Object.entries(shapes)) {
      const problem = checkParam(name, req.params?.[name], shape)
      if (problem) return void res.status(400).json(invalidData([problem]))
    }
    next()
  }
}
