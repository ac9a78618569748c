// Body validation of the plugin's routes: Medusa's validateAndTransformBody, its 400 completed with
// located `errors` from the plugin's own parse of the body, so a widget can show each field's.
import { validateAndTransformBody, type MedusaNextFunction, type MedusaRequest, type MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { sendZodError } from "./answers"
import { invalidData } from "./input-guard"

export function validateBodyLocated(schema: z.ZodType) {
  const medusa = validateAndTransformBody(schema)
  return async (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) => {
    const located = (err?: unknown) => {
      // Medusa's INVALID_DATA, or its validator failing on a hostile value ({"toString": …} where a
      // string belongs): both are bad input, answered with the located 400
      const badInput = err instanceof MedusaError ? err.type === MedusaError.Types.INVALID_DATA : err !== undefined
      if (badInput) {
        const parsed = schema.safeParse(req.body)
        if (!parsed.success) return sendZodError(res, parsed.error, req.body)
        const unknown = unknownFields(schema, req.body)
        const body = (req.body ?? {}) as Record<string, unknown>
        const errors = unknown.map((f) => ({ location: `body.${f}`, message: "not a field of this request", value: body[f] }))
        if (errors.length) return void res.status(400).json(invalidData(errors))
      }
      return next(err)
    }
    try {
      await medusa(req, res, located)
    } catch (e) {
      located(e)
    }
  }
}

/** The top-level fields of `body` that `schema` does not name (its strict parse's unrecognized keys). Pure. */
export function unknownFields(schema: z.ZodType, body: unknown): string[] {
  const strict = (schema as { strict?: () => z.ZodType }).strict
  if (typeof strict !== "function") return []
  const parsed = strict.call(schema).safeParse(body)
  if (parsed.success) return []
  return parsed.error.issues.flatMap((i) => (i.code === "unrecognized_keys" && i.path.length === 0 ? i.keys : []))
}

/** A zod catchall: any other field is refused at its own location (`body.<field>`), not as an unknown key of the body. */
export const notAField = z.unknown().refine(() => false, { error: "not a field of this request" })
