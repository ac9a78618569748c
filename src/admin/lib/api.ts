// The fetch of the plugin's admin routes: JSON in and out, or a file saved. The dashboard signs in
// with a session cookie, or a JWT in localStorage when configured so: both are sent.
import type { ErrorDetail } from "../../../packages/contract/src/index"

declare const __BACKEND_URL__: string | undefined

/** A value as JSON carries it: dates as ISO strings. */
export type Json<T> = T extends Date
  ? string
  : T extends readonly (infer U)[]
    ? Json<U>[]
    : T extends object
      ? { [K in keyof T]: Json<T[K]> }
      : T

export class AdminApiError extends Error {
  constructor(
    message: string,
    public status: number,
    public errors: ErrorDetail[] = [],
  ) {
    super(message)
  }
}

/** A failed call's messages keyed by field path without "body.": `address.zip`, `states[0].abbreviation` ({} for any other failure). */
export function fieldErrorsOf(e: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  if (e instanceof AdminApiError) for (const x of e.errors) out[x.location.replace(/^body\./, "")] ??= x.message
  return out
}

export const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e))

type Init = { method?: string; body?: unknown }

function request(path: string, accept: string, { method = "GET", body }: Init = {}): Promise<Response> {
  const base = typeof __BACKEND_URL__ !== "undefined" && __BACKEND_URL__ ? __BACKEND_URL__ : "/"
  let token: string | null = null
  try {
    token = window.localStorage.getItem("medusa_auth_token")
  } catch {
    // storage unavailable: the session cookie alone
  }
  const headers = {
    accept,
    ...(body !== undefined && { "content-type": "application/json" }),
    ...(token && { authorization: `Bearer ${token}` }),
  }
  return fetch(`${base.replace(/\/$/, "")}${path}`, {
    method,
    credentials: "include",
    headers,
    body: body !== undefined ? JSON.stringify(body) : undefined,
  })
}

export async function api<T>(path: string, init?: Init): Promise<T> {
  const res = await request(path, "application/json", init)
  const text = await res.text()
  let json: { message?: string; errors?: ErrorDetail[] } | undefined
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    // not JSON: the status speaks
  }
  if (!res.ok)
    throw new AdminApiError(
      json?.message || `Request failed with status ${res.status}`,
      res.status,
      Array.isArray(json?.errors) ? json.errors : [],
    )
  return json as T
}

export const post = <T>(path: string, body?: unknown): Promise<T> => api<T>(path, { method: "POST", body })

/** A GET whose 404 means "none yet": null instead of an error. */
export const orNone = <T>(path: string): Promise<T | null> =>
  api<T>(path).catch((e: unknown) => {
    if (e instanceof AdminApiError && e.status === 404) return null
    throw e
  })

/** Fetches an admin route's file with the admin's session (or stored token) and saves it as `filename`. */
export async function downloadFile(path: string, filename: string): Promise<void> {
  const res = await request(path, "text/csv")
  if (!res.ok) throw new AdminApiError(`Download failed with status ${res.status}`, res.status)
  const a = Object.assign(document.createElement("a"), { href: URL.createObjectURL(await res.blob()), download: filename })
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(a.href), 1000)
}
