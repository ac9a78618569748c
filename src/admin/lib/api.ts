// The fetch of the plugin's admin routes: JSON in and out, or a file saved. The dashboard
// authenticates with a session cookie by default (or a JWT kept in localStorage when configured
// so): both are sent.
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
    public errors: LocatedError[] = [],
  ) {
    super(message)
  }
  /** Messages keyed by field path, without the "body." prefix: `address.zip`, `states[0].abbreviation`. */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {}
    for (const e of this.errors) out[e.location.replace(/^body\./, "")] ??= e.message
    return out
  }
}

/** The located messages of a failed call ({} for any other failure). */
export const fieldErrorsOf = (e: unknown): Record<string, string> => (e instanceof AdminApiError ? e.fieldErrors() : {})

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}

function request(path: string, accept: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  const base = typeof __BACKEND_URL__ !== "undefined" && __BACKEND_URL__ ? __BACKEND_URL__ : "/"
  let token: string | null = null
  try {
    token = window.localStorage.getItem("medusa_auth_token")
  } catch {
    // storage unavailable: the session cookie alone
  }
  return fetch(`${base.replace(/\/$/, "")}${path}`, {
    method: init.method ?? "GET",
    credentials: "include",
    headers: {
      accept,
      ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  })
}

export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await request(path, "application/json", init)
  const text = await res.text()
  let json: unknown = undefined
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    // not JSON: the status speaks
  }
  if (!res.ok) {
    const body = (json ?? {}) as { message?: string; errors?: LocatedError[] }
    throw new AdminApiError(
      body.message || `Request failed with status ${res.status}`,
      res.status,
      Array.isArray(body.errors) ? body.errors : [],
    )
  }
  return json as T
}

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
  const a = document.createElement("a")
  a.href = URL.createObjectURL(await res.blob())
  a.download = filename
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(a.href), 1000)
}
