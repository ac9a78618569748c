import { AdminApiError, authHeaders, backendUrl } from "./api"

/** Fetches an admin route's file with the admin's session (or stored token) and saves it as `filename`. */
export async function downloadFile(path: string, filename: string, accept = "text/csv"): Promise<void> {
  const res = await fetch(`${backendUrl()}${path}`, { credentials: "include", headers: { accept, ...authHeaders() } })
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
