import { closeSync, existsSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs"
import { join } from "node:path"

/** The collections the sandbox keeps, each keyed by (connectionId, id). */
export type CollectionName = "carts" | "orders" | "certificates" | "voided"
export const COLLECTIONS: readonly CollectionName[] = ["carts", "orders", "certificates", "voided"]

/** One change; a commit is a list of changes applied (and journaled) atomically. */
export type StoreOp =
  | { op: "put"; coll: CollectionName; conn: string; id: string; value: unknown }
  | { op: "del"; coll: CollectionName; conn: string; id: string }

/** The journal file inside the data directory. */
export const JOURNAL_FILE = "journal.jsonl"

interface JournalLine {
  v: 1
  ops: StoreOp[]
}

/**
 * The sandbox store: nested maps in memory (collection → connectionId → id → record), optionally
 * backed by an append-only JSON-lines journal. Each commit is ONE line holding every change of one
 * operation; the line is written and fsync'ed before `commit` returns, so anything acknowledged
 * over HTTP survives a crash (kill -9). At start the journal is replayed; a torn last line (a crash
 * in the middle of a write, never acknowledged) is dropped and truncated away. A bad line in the
 * middle of the file is corruption and makes `open` throw.
 *
 * Records are immutable values (deep-frozen when stored): callers never mutate what they get,
 * they `commit` a new value.
 */
export class SandboxStore {
  private data = new Map<CollectionName, Map<string, Map<string, unknown>>>()
  private fd: number | null = null
  readonly journalPath: string | null
  /** Number of commits replayed from the journal at open. */
  readonly replayed: number = 0

  constructor(dataDir?: string) {
    for (const c of COLLECTIONS) this.data.set(c, new Map())
    if (!dataDir) {
      this.journalPath = null
      return
    }
    mkdirSync(dataDir, { recursive: true })
    this.journalPath = join(dataDir, JOURNAL_FILE)
    let goodBytes = 0
    if (existsSync(this.journalPath)) {
      const buf = readFileSync(this.journalPath)
      let start = 0
      let count = 0
      while (start < buf.length) {
        const nl = buf.indexOf(0x0a, start)
        const end = nl === -1 ? buf.length : nl
        const text = buf.subarray(start, end).toString("utf8")
        let parsed: JournalLine | null = null
        try {
          const j = JSON.parse(text) as JournalLine
          if (j && j.v === 1 && Array.isArray(j.ops)) parsed = j
        } catch {
          parsed = null
        }
        if (!parsed || nl === -1) {
          // Torn tail: an unterminated or unparsable final line. Anything after it would mean
          // corruption in the middle of the journal.
          const rest = nl === -1 ? Buffer.alloc(0) : buf.subarray(nl + 1)
          if (rest.toString("utf8").trim() !== "") {
            throw new Error(`sandbox journal ${this.journalPath} is corrupt at byte ${start}`)
          }
          if (parsed && nl === -1) {
            // complete JSON without its newline: the write made it, only "\n" is missing
            this.apply(parsed.ops)
            count++
            goodBytes = buf.length
          }
          break
        }
        this.apply(parsed.ops)
        count++
        start = nl + 1
        goodBytes = start
      }
      this.replayed = count
    }
    const created = !existsSync(this.journalPath)
    this.fd = openSync(this.journalPath, "a+")
    if (created) fsyncDir(dataDir)
    const size = existsSync(this.journalPath) ? readFileSync(this.journalPath).length : 0
    if (size !== goodBytes) ftruncateSync(this.fd, goodBytes)
    if (goodBytes > 0 && readFileSync(this.journalPath)[goodBytes - 1] !== 0x0a) writeSync(this.fd, "\n")
    if (size !== goodBytes || goodBytes > 0) fsyncSync(this.fd)
  }

  get persistent(): boolean {
    return this.journalPath !== null
  }

  get<T>(coll: CollectionName, conn: string, id: string): T | undefined {
    return this.data.get(coll)!.get(conn)?.get(id) as T | undefined
  }

  /** Every record of a collection for the given connections (all connections when omitted). */
  list<T>(coll: CollectionName, conns?: Iterable<string>): T[] {
    const byConn = this.data.get(coll)!
    const out: T[] = []
    const keys = conns ? [...conns] : [...byConn.keys()]
    for (const c of keys) {
      const m = byConn.get(c)
      if (m) for (const v of m.values()) out.push(v as T)
    }
    return out
  }

  /** Applies the changes in memory after making them durable (one journal line, fsync'ed). */
  commit(ops: StoreOp[]): void {
    if (ops.length === 0) return
    if (this.fd !== null) {
      const line = JSON.stringify({ v: 1, ops } satisfies JournalLine) + "\n"
      writeSync(this.fd, line)
      fsyncSync(this.fd)
    }
    this.apply(ops)
  }

  /** Drops every record (and truncates the journal). */
  clear(): void {
    for (const c of COLLECTIONS) this.data.set(c, new Map())
    if (this.fd !== null) {
      ftruncateSync(this.fd, 0)
      fsyncSync(this.fd)
    }
  }

  /** A deterministic JSON image of the whole store (tests compare it before/after requests). */
  snapshot(): string {
    const out: Record<string, [string, [string, unknown][]][]> = {}
    for (const c of COLLECTIONS) {
      const byConn = this.data.get(c)!
      out[c] = [...byConn.keys()].sort().map((conn) => [conn, [...byConn.get(conn)!.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))])
    }
    return JSON.stringify(out)
  }

  close(): void {
    if (this.fd !== null) {
      closeSync(this.fd)
      this.fd = null
    }
  }

  private apply(ops: StoreOp[]): void {
    for (const o of ops) {
      const byConn = this.data.get(o.coll)
      if (!byConn) continue
      if (o.op === "put") {
        let m = byConn.get(o.conn)
        if (!m) byConn.set(o.conn, (m = new Map()))
        m.set(o.id, deepFreeze(o.value))
      } else {
        const m = byConn.get(o.conn)
        if (m) {
          m.delete(o.id)
          if (m.size === 0) byConn.delete(o.conn)
        }
      }
    }
  }
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === "object" && !Object.isFrozen(v)) {
    Object.freeze(v)
    for (const x of Object.values(v as object)) deepFreeze(x)
  }
  return v
}

/** Makes a newly created file's directory entry durable (best effort: not every platform allows it). */
function fsyncDir(dir: string): void {
  let fd: number | null = null
  try {
    fd = openSync(dir, "r")
    fsyncSync(fd)
  } catch {
    // e.g. Windows cannot open directories; the file's own fsync still applies
  } finally {
    if (fd !== null) closeSync(fd)
  }
}
