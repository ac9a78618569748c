// One CSV field as the plugin writes it (reconciliation's month, the TIC export).

/** RFC 4180 field: quoted when it holds a comma, quote, CR or LF; a leading =,+,-,@ is defused for spreadsheets. */
export function csvField(v: string | number | null): string {
  let s = v === null ? "" : String(v)
  if (typeof v === "string" && /^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s)) s = `'${s}`
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}
