import {
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs"
import { hostname } from "node:os"
import { join, resolve } from "node:path"

/** The collections the sandbox keeps, each keyed by (connectionId, id). */
export type CollectionName = "carts" | "orders" | "certificates" | "voided" | "accounts"
export const COLLECTIONS: readonly CollectionName[] = ["carts", "orders", "certificates", "voided", "accounts"]

/** One change; a commit is a list of changes applied (and journaled) atomically. */
export type StoreOp =
  | { op: "put"; coll: CollectionName; conn: string; id: string; value: unknown }
  | { op: "del"; coll: CollectionName; conn: string; id: string }

/** The journal file inside the data directory. */
export const JOURNAL_FILE = "journal.jsonl"
/** The lock file inside the data directory: one sandbox per directory. */
export const LOCK_FILE = "sandbox.lock"

/** A second sandbox (another process, or another store in this one) on a data directory in use. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder | null,
  ) {
    const who = holder ? `pid ${holder.pid} on ${holder.host}, since ${holder.since}` : "a lock file that could not be read"
    super(
      `data directory ${dataDir} is in use by another sandbox (${who}): stop that sandbox or use another --data-dir` +
        ` (if no sandbox uses it any more, delete ${join(dataDir, LOCK_FILE)})`,
    )
    this.name = "DataDirLockedError"
  }
}

interface LockHolder {
  pid: number
  host: string
  since: string
}

function readHolder(path: string): LockHolder | null {
  try {
    const h = JSON.parse(readFileSync(path, "utf8")) as Partial<LockHolder>
    return typeof h.pid === "number" && typeof h.host === "string" && typeof h.since === "string" ? (h as LockHolder) : null
  } catch {
    return null
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as { code?: string }).code === "EPERM"
  }
}

/**
 * Takes the data directory's lock: creates LOCK_FILE exclusively (O_EXCL) with this process's pid
 * and host. A lock left by a process that is gone (kill -9, crash: same host, pid not running) or
 * an unreadable one is taken over; a lock of a live process, or of another host (which cannot be
 * checked), refuses with DataDirLockedError.
 */
function acquireLock(dataDir: string): string {
  const path = join(dataDir, LOCK_FILE)
  const me: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(path, JSON.stringify(me), { flag: "wx" })
      return path
    } catch (e) {
      if ((e as { code?: string }).code !== "EEXIST") throw e
    }
    const holder = readHolder(path)
    if (holder && (holder.host !== me.host || processAlive(holder.pid))) throw new DataDirLockedError(dataDir, holder)
    rmSync(path, { force: true }) // stale: its process is gone (or the file is torn)
  }
  throw new DataDirLockedError(dataDir, readHolder(path))
}

function releaseLock(path: string): void {
  const holder = readHolder(path)
  if (holder && holder.pid === process.pid && holder.host === hostname()) rmSync(path, { force: true })
}

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
 * Records are immutable values (deep-frozen when first read, not on every write of the hot POST
 * carts): callers never mutate what they get or what they committed, they `commit` a new value.
 */
export class SandboxStore {
  private data = new Map<CollectionName, Map<string, Map<string, unknown>>>()
  private fd: number | null = null
  readonly journalPath: string | null
  /** Number of commits replayed from the journal at open. */
  readonly replayed: number = 0

  private lockPath: string | null = null

  constructor(dataDir?: string) {
    for (const c of COLLECTIONS) this.data.set(c, new Map())
    if (!dataDir) {
      this.journalPath = null
      return
    }
    const dir = resolve(dataDir)
    mkdirSync(dir, { recursive: true })
    this.lockPath = acquireLock(dir)
    this.journalPath = join(dir, JOURNAL_FILE)
    try {
      this.replayed = this.openJournal(dir, this.journalPath)
    } catch (e) {
      this.close()
      throw e
    }
  }

  /** Replays the journal, truncates a torn tail, opens it for appending; returns the commits replayed. */
  private openJournal(dataDir: string, journalPath: string): number {
    let replayed = 0
    let goodBytes = 0
    if (existsSync(journalPath)) {
      const buf = readFileSync(journalPath)
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
            throw new Error(`sandbox journal ${journalPath} is corrupt at byte ${start}`)
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
      replayed = count
    }
    const created = !existsSync(journalPath)
    this.fd = openSync(journalPath, "a+")
    if (created) fsyncDir(dataDir)
    const size = existsSync(journalPath) ? readFileSync(journalPath).length : 0
    if (size !== goodBytes) ftruncateSync(this.fd, goodBytes)
    if (goodBytes > 0 && readFileSync(journalPath)[goodBytes - 1] !== 0x0a) writeSync(this.fd, "\n")
    if (size !== goodBytes || goodBytes > 0) fsyncSync(this.fd)
    return replayed
  }

  get persistent(): boolean {
    return this.journalPath !== null
  }

  get<T>(coll: CollectionName, conn: string, id: string): T | undefined {
    return deepFreeze(this.data.get(coll)!.get(conn)?.get(id)) as T | undefined
  }

  /** Every record of a collection for the given connections (all connections when omitted). */
  list<T>(coll: CollectionName, conns?: Iterable<string>): T[] {
    const byConn = this.data.get(coll)!
    const out: T[] = []
    const keys = conns ? [...conns] : [...byConn.keys()]
    for (const c of keys) {
      const m = byConn.get(c)
      if (m) for (const v of m.values()) out.push(deepFreeze(v) as T)
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
      out[c] = [...byConn.keys()]
        .sort()
        .map((conn) => [conn, [...byConn.get(conn)!.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))])
    }
    return JSON.stringify(out)
  }

  close(): void {
    if (this.fd !== null) {
      closeSync(this.fd)
      this.fd = null
    }
    if (this.lockPath !== null) {
      releaseLock(this.lockPath)
      this.lockPath = null
    }
  }

  private apply(ops: StoreOp[]): void {
    for (const o of ops) {
      const byConn = this.data.get(o.coll)
      if (!byConn) continue
      if (o.op === "put") {
        let m = byConn.get(o.conn)
        if (!m) byConn.set(o.conn, (m = new Map()))
        m.set(o.id, o.value)
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
  if (v !== null && typeof v === "object" && !Object.isFrozen(v)) {
    Object.freeze(v)
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) deepFreeze(v[i])
    else for (const k in v) deepFreeze((v as Record<string, unknown>)[k])
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
