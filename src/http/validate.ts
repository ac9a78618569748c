// Body validation of the plugin's routes: the body as Medusa's validateAndTransformBody would take it
// (the schema, strict: no field it does not name), each refusal a located error, so a widget can show
// each field's; a hostile value ({"toString": …} where a string belongs) is one as well.
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { sendZodError } from "./answers"
import { invalidData } from "./input-guard"

export function validateBodyLocated(schema: z.ZodType) {
  return async (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) => {
    const parsed = await schema.safeParseAsync(req.body)
    if (!parsed.success) return sendZodError(res, parsed.error, req.body)
    const body = (req.body ?? {}) as Record<string, unknown>
    const errors = unknownFields(schema, req.body).map((f) => ({
      location: `body.${f}`,
      message: "not a field of this request",
      value: body[f],
    }))
    if (errors.length) return void res.status(400).json(invalidData(errors))
    // what Medusa's validator sets (its strict parse's output: the same, no field being unknown)
    req.validatedBody = parsed.data
    next()
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
