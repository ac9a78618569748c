/**
 * Console output of the demo: one progress line per step, tables, and errors without stack traces
 * on the paths a user can meet (a DemoError carries the message and what to do about it).
 */
const color = process.stdout.isTTY && !process.env.NO_COLOR
const wrap = (code: string) => (s: string) => (color ? `\u001b[${code}m${s}\u001b[0m` : s)
export const bold = wrap("1")
export const dim = wrap("2")
export const green = wrap("32")
export const red = wrap("31")
export const yellow = wrap("33")
export const cyan = wrap("36")

/** An expected failure: printed as the message and the hint, without a stack trace. */
export class DemoError extends Error {
  constructor(
    message: string,
    public readonly hint?: string,
    public readonly logFile?: string,
    public readonly details?: string,
  ) {
    super(message)
    this.name = "DemoError"
  }
}

let muted = false
/** After a stop (Ctrl-C, time limit) the steps that fail because of it print nothing. */
export function mute(): void {
  muted = true
}

export function line(s = ""): void {
  if (!muted) process.stdout.write(`${s}\n`)
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}

/** Runs one step: "→ title ..." then "✓ title (result) 12.3 s" or "✗ title". */
export async function step<T>(title: string, fn: () => Promise<T>, done?: (r: T) => string): Promise<T> {
  const t0 = Date.now()
  line(`${cyan("→")} ${title} ...`)
  try {
    const r = await fn()
    const extra = done ? done(r) : ""
    line(`${green("✓")} ${title}${extra ? `: ${extra}` : ""} ${dim(`(${seconds(Date.now() - t0)})`)}`)
    return r
  } catch (e) {
    line(`${red("✗")} ${title} ${dim(`(${seconds(Date.now() - t0)})`)}`)
    throw e
  }
}

export function info(s: string): void {
  line(`  ${s}`)
}

export function warn(s: string): void {
  line(`${yellow("!")} ${s}`)
}

export function errorBlock(e: unknown): void {
  if (e instanceof DemoError) {
    line(`${red("error:")} ${e.message}`)
    if (e.details) for (const l of e.details.split("\n")) line(`  ${dim(l)}`)
    if (e.hint) line(`${yellow("what to do:")} ${e.hint}`)
    if (e.logFile) line(`${dim(`log: ${e.logFile}`)}`)
    return
  }
  const err = e instanceof Error ? e : new Error(String(e))
  line(`${red("unexpected error:")} ${err.message}`)
  if (err.stack) for (const l of err.stack.split("\n").slice(1, 8)) line(dim(l))
}

/** A plain text table: columns aligned, numbers right-aligned. */
export function table(headers: string[], rows: string[][], rightAligned: ReadonlySet<number> = new Set()): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => stripAnsi(r[i] ?? "").length)))
  const cell = (s: string, i: number) => {
    const pad = " ".repeat(Math.max(0, widths[i] - stripAnsi(s).length))
    return rightAligned.has(i) ? pad + s : s + pad
  }
  const out = [headers.map(cell).join("  "), widths.map((w) => "-".repeat(w)).join("  ")]
  for (const r of rows) out.push(r.map(cell).join("  "))
  return out
}

export function stripAnsi(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\u001b\[[0-9;]*m/g, "")
}
