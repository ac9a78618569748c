// Tiny fetch wrapper for the plugin's admin routes. The dashboard authenticates with a session
// cookie by default (or a JWT kept in localStorage when configured so): both are sent.
declare const __BACKEND_URL__: string | undefined

export interface LocatedError {
  location: string
  message: string
  value?: unknown
}

export class AdminApiError extends Error {
  constructor(
    message: string,
    public status: number,
    public type: string | undefined,
    public errors: LocatedError[],
  ) {
    super(message)
  }
  /** Messages keyed by field path, without the "body." prefix: `address.zip`, `states[0].abbreviation`. */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {}
    for (const e of this.errors) {
      const key = e.location.replace(/^body\./, "")
      if (!out[key]) out[key] = e.message
    }
    return out
  }
}

export function backendUrl(): string {
  try {
    const url = typeof __BACKEND_URL__ !== "undefined" && __BACKEND_URL__ ? __BACKEND_URL__ : "/"
    return url.endsWith("/") ? url.slice(0, -1) : url
  } catch {
    return ""
  }
}

export function authHeaders(): Record<string, string> {
  try {
    const token = window.localStorage.getItem("medusa_auth_token")
    return token ? { authorization: `Bearer ${token}` } : {}
  } catch {
    return {}
  }
}

export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`${backendUrl()}${path}`, {
    method: init.method ?? "GET",
    credentials: "include",
    headers: {
      accept: "application/json",
      ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
      ...authHeaders(),
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  })
  const text = await res.text()
  let json: unknown = undefined
  if (text) {
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
  }
  if (!res.ok) {
    const body = (json ?? {}) as { message?: string; type?: string; errors?: LocatedError[] }
    throw new AdminApiError(
      body.message || `Request failed with status ${res.status}`,
      res.status,
      body.type,
      Array.isArray(body.errors) ? body.errors : [],
    )
  }
  return json as T
}

export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message
  return String(e)
}
