import type { z } from "zod"
import type { ErrorDetail } from "./common"

/**
 * Turns zod issues into the service's located error details: `location` is
 * `<part>.<path>` with array indices in brackets, e.g. `body.items[0].destination.state`.
 */
export function locate(part: "body" | "path" | "query" | "header", path: ReadonlyArray<PropertyKey>): string {
  let out: string = part
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`
    else out += `.${String(seg)}`
  }
  return out
}

export function issuesToErrors(part: "body" | "path" | "query" | "header", error: z.ZodError, input: unknown): ErrorDetail[] {
  return error.issues.map((iss) => ({
    location: locate(part, iss.path),
    message: iss.message,
    value: "input" in iss && iss.input !== undefined ? (iss as { input?: unknown }).input : valueAt(input, iss.path),
  }))
}

function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let cur: unknown = input
  for (const seg of path) {
    if (cur === null || typeof cur !== "object") return undefined
    cur = (cur as Record<PropertyKey, unknown>)[seg]
  }
  return cur
}
