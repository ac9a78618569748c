/**
 * Child processes, ports and clean shutdown for the demo. Every resource registers its own
 * cleanup; `shutdown()` runs them in reverse order once (normal end, error, Ctrl-C, SIGTERM).
 */
import { spawn, type ChildProcess } from "node:child_process"
import { createWriteStream, existsSync, mkdirSync, readFileSync } from "node:fs"
import net from "node:net"
import { dirname } from "node:path"
import { DemoError } from "./ui"
import { PROCESS_BOUND, watchProcess } from "../../scripts/stall"

type Cleanup = { name: string; run: () => Promise<void> }
const cleanups: Cleanup[] = []
let shuttingDown: Promise<void> | null = null

export function onShutdown(name: string, run: () => Promise<void>): void {
  cleanups.push({ name, run })
}

/** Runs every registered cleanup (last registered first), each bounded in time. */
export function shutdown(): Promise<void> {
  if (shuttingDown) return shuttingDown
  shuttingDown = (async () => {
    while (cleanups.length) {
      const c = cleanups.pop()!
      await Promise.race([c.run().catch(() => undefined), new Promise<void>((r) => setTimeout(r, 15_000).unref())])
    }
  })()
  return shuttingDown
}

/** A free TCP port on 127.0.0.1 (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.unref()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address()
      const port = typeof addr === "object" && addr ? addr.port : 0
      s.close(() => resolve(port))
    })
  })
}

/** Throws an actionable DemoError when `port` cannot be bound (in use, or not permitted). */
export function assertPortFree(port: number, what: string, flag: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.unref()
    s.once("error", (e: NodeJS.ErrnoException) => {
      const why = e.code === "EADDRINUSE" ? "is already in use" : e.code === "EACCES" ? "needs privileges" : `cannot be used (${e.code})`
      reject(
        new DemoError(
          `port ${port} for ${what} ${why}`,
          e.code === "EADDRINUSE"
            ? `stop the program that listens on ${port} (\`ss -ltnp | grep :${port}\` or \`lsof -i :${port}\` shows it), or pass ${flag} <another port>`
            : `pass ${flag} with a port above 1024`,
        ),
      )
    })
    s.listen(port, () => s.close(() => resolve()))
  })
}

export interface RunOptions {
  cwd: string
  env: NodeJS.ProcessEnv
  /** appended with stdout and stderr */
  logFile: string
  /** what the user sees in messages, e.g. "medusa db:migrate" */
  label: string
}

export interface Spawned {
  child: ChildProcess
  exited: Promise<number | null>
  stop(): Promise<void>
  /** SIGKILL to the whole process tree, at once (a crash, for the cluster test) */
  kill(): void
}

/** Starts a command with its output appended to a log file; stop() = SIGTERM, then SIGKILL. */
export function spawnLogged(cmd: string, args: string[], o: RunOptions): Spawned {
  mkdirSync(dirname(o.logFile), { recursive: true })
  const log = createWriteStream(o.logFile, { flags: "a" })
  log.write(`\n$ ${o.label}  (${new Date().toISOString()})\n`)
  // its own process group: Medusa's CLI starts children of its own (db:migrate runs
  // db:migrate:scripts), and stop() must end the whole tree
  const child = spawn(cmd, args, { cwd: o.cwd, env: o.env, stdio: ["ignore", "pipe", "pipe"], detached: true })
  child.stdout?.pipe(log, { end: false })
  child.stderr?.pipe(log, { end: false })
  const exited = new Promise<number | null>((resolve) => {
    child.once("error", (e) => {
      log.write(`\n[demo] could not start: ${e.message}\n`)
      resolve(-1)
    })
    child.once("exit", (code, signal) => {
      log.write(`\n[demo] exited with ${code ?? signal}\n`)
      resolve(code)
    })
  })
  const signalTree = (sig: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, sig)
    } catch {
      // the group is gone already
    }
  }
  const stop = async () => {
    // only while the leader runs: after its exit the group id could in theory be reused
    if (child.exitCode !== null || child.signalCode !== null) return
    signalTree("SIGTERM")
    const ended = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 8000).unref())])
    if (!ended) {
      signalTree("SIGKILL")
      await exited
    }
  }
  return { child, exited, stop, kill: () => signalTree("SIGKILL") }
}

/**
 * Runs a command to its end; a non-zero exit or a stall is a DemoError naming the log. Bounded by
 * progress, not wall time (scripts/stall.ts): stopped when its process tree has used no CPU for
 * 3 min (it waits on something that will not come), or at the 45 min cap; a loaded machine only
 * makes it slower.
 */
export async function runLogged(cmd: string, args: string[], o: RunOptions): Promise<void> {
  const p = spawnLogged(cmd, args, o)
  onShutdown(o.label, p.stop)
  let unwatch = () => undefined as void
  const stalled = new Promise<string>((r) => {
    unwatch = watchProcess(p.child.pid!, o.label, PROCESS_BOUND, r)
  })
  const r = await Promise.race([p.exited, stalled])
  unwatch()
  if (typeof r === "string") {
    await p.stop()
    throw new DemoError(r, "read the log for where it stopped", o.logFile, logTail(o.logFile))
  }
  if (r !== 0) {
    throw new DemoError(`${o.label} failed (exit code ${r})`, undefined, o.logFile, logTail(o.logFile))
  }
}

/** Medusa's CLI output has noise (a ts-node notice, colour codes): the last meaningful lines. */
export function logTail(file: string, n = 14): string {
  if (!existsSync(file)) return ""
  const lines = readFileSync(file, "utf8")
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
  // only this run's part of the log
  let start = 0
  lines.forEach((l, i) => {
    if (l.startsWith("$ ")) start = i
  })
  const noise =
    /ts-node|Cannot find module 'ts-node'|requireStack|MODULE_NOT_FOUND|cjs\/loader|node:internal|^\s*at |^\s*[{}\]]\s*$|^\s*code:|Require stack|\/cli\.js'?\s*$|npm warn|DeprecationWarning|--trace-deprecation/
  return lines
    .slice(start + 1)
    .filter((l) => l.trim() && !noise.test(l))
    .slice(-n)
    .join("\n")
}
