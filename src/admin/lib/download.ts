import { AdminApiError } from "./api"

declare const __BACKEND_URL__: string | undefined

function backendUrl(): string {
  try {
    const url = typeof __BACKEND_URL__ !== "undefined" && __BACKEND_URL__ ? __BACKEND_URL__ : "/"
    return url.endsWith("/") ? url.slice(0, -1) : url
  } catch {
    return ""
  }
}

/** Fetches an admin route's file with the admin's session (or stored token) and saves it as `filename`. */
export async function downloadFile(path: string, filename: string, accept = "text/csv"): Promise<void> {
  let auth: Record<string, string> = {}
  try {
    const token = window.localStorage.getItem("medusa_auth_token")
    if (token) auth = { authorization: `Bearer ${token}` }
  } catch {
    auth = {}
  }
  const res = await fetch(`${backendUrl()}${path}`, { credentials: "include", headers: { accept, ...auth } })
  if (!res.ok) throw new AdminApiError(`Download failed with status ${res.status}`, res.status, undefined, [])
  const blob = await res.blob()
  const a = document.createElement("a")
  a.href = URL.createObjectURL(blob)
  a.download = filename
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(a.href), 1000)
}
