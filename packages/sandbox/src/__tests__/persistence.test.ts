import { spawn, spawnSync } from "node:child_process"
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { hostname, tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { DataDirLockedError, JOURNAL_FILE, LOCK_FILE, SandboxStore } from "../store"
import { C, call, certBody, makeSandbox, orderBody } from "./helpers"

const dirs: string[] = []
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), "sandbox-store-"))
  dirs.push(d)
  return d
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

describe("journal store", () => {
  it("in memory without a data dir", () => {
    const s = new SandboxStore()
    s.commit([{ op: "put", coll: "orders", conn: "c", id: "1", value: { a: 1 } }])
    expect(s.get("orders", "c", "1")).toEqual({ a: 1 })
    expect(s.persistent).toBe(false)
  })

  it("replays every commit after reopening, deletions included", () => {
    const dir = tmp()
    const a = new SandboxStore(dir)
    a.commit([
      { op: "put", coll: "orders", conn: "c", id: "1", value: { v: 1 } },
      { op: "put", coll: "carts", conn: "c", id: "k", value: { v: 2 } },
    ])
    a.commit([{ op: "put", coll: "orders", conn: "c", id: "2", value: { v: 3 } }])
    a.commit([
      { op: "del", coll: "orders", conn: "c", id: "1" },
      { op: "put", coll: "voided", conn: "c", id: "1", value: { orderId: "1" } },
    ])
    const image = a.snapshot()
    a.close()
    const b = new SandboxStore(dir)
    expect(b.snapshot()).toBe(image)
    expect(b.replayed).toBe(3)
    expect(b.get("orders", "c", "1")).toBeUndefined()
    b.close()
  })

  it("drops a torn last line, truncates it away, and keeps appending after it", () => {
    const dir = tmp()
    const a = new SandboxStore(dir)
    a.commit([{ op: "put", coll: "orders", conn: "c", id: "1", value: { v: 1 } }])
    a.close()
    appendFileSync(join(dir, JOURNAL_FILE), '{"v":1,"ops":[{"op":"put","coll":"orders","conn":"c","id":"2","val')
    const b = new SandboxStore(dir)
    expect(b.get("orders", "c", "1")).toEqual({ v: 1 })
    expect(b.get("orders", "c", "2")).toBeUndefined()
    b.commit([{ op: "put", coll: "orders", conn: "c", id: "3", value: { v: 3 } }])
    b.close()
    const lines = readFileSync(join(dir, JOURNAL_FILE), "utf8").split("\n").filter(Boolean)
    expect(lines.map((l) => JSON.parse(l).ops[0].id)).toEqual(["1", "3"])
    const c = new SandboxStore(dir)
    expect(c.get("orders", "c", "3")).toEqual({ v: 3 })
    c.close()
  })

  it("keeps a complete last line that lost only its newline", () => {
    const dir = tmp()
    writeFileSync(join(dir, JOURNAL_FILE), JSON.stringify({ v: 1, ops: [{ op: "put", coll: "carts", conn: "c", id: "x", value: 1 }] }))
    const s = new SandboxStore(dir)
    expect(s.get("carts", "c", "x")).toBe(1)
    s.commit([{ op: "put", coll: "carts", conn: "c", id: "y", value: 2 }])
    s.close()
    const again = new SandboxStore(dir)
    expect([again.get("carts", "c", "x"), again.get("carts", "c", "y")]).toEqual([1, 2])
    again.close()
  })

  it("refuses a journal corrupted in the middle", () => {
    const dir = tmp()
    writeFileSync(join(dir, JOURNAL_FILE), 'garbage\n{"v":1,"ops":[]}\n')
    expect(() => new SandboxStore(dir)).toThrow(/corrupt/)
  })

  it("the HTTP sandbox keeps its data across a restart and reset empties the journal", async () => {
    const dir = tmp()
    const a = await makeSandbox({ dataDir: dir })
    expect((await call(a, "POST", `${C()}/orders`, { body: orderBody({ orderId: "kept" }) })).status).toBe(201)
    const cert = await call(a, "POST", `${C()}/exemption-certificates`, { body: certBody() })
    await a.close()
    const b = await makeSandbox({ dataDir: dir })
    expect((await call(b, "GET", `${C()}/orders/kept`)).status).toBe(200)
    expect((await call(b, "GET", `${C()}/exemption-certificates/${cert.body.certificateId}`)).status).toBe(200)
    expect((await call(b, "POST", "/_sandbox/reset")).status).toBe(204)
    await b.close()
    const c = await makeSandbox({ dataDir: dir })
    expect((await call(c, "GET", `${C()}/orders/kept`)).status).toBe(404)
    await c.close()
  })
})

describe("data directory lock: one sandbox per --data-dir", () => {
  const ROOT = resolve(__dirname, "../..")

  it("refuses a second process on a directory in use with a clear error (the CLI exits 1), and frees it on close", async () => {
    const dir = tmp()
    const a = await makeSandbox({ dataDir: dir })
    const lock = JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8"))
    expect({ pid: lock.pid, host: lock.host }).toEqual({ pid: process.pid, host: hostname() })
    const child = spawn(
      process.execPath,
      ["--require", require.resolve("tsx/cjs"), join(ROOT, "src/cli.ts"), "--port", "0", "--data-dir", dir],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
    )
    let err = ""
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()))
    // it must exit; if it starts listening instead, stop it and fail (never leave it running)
    const outcome = await new Promise<string>((r) => {
      child.on("exit", (c) => r(`exit ${c}`))
      child.stdout!.on("data", (d: Buffer) => {
        if (d.toString().includes("listening on")) {
          child.kill("SIGKILL")
          r("listening")
        }
      })
    })
    expect(outcome).toBe("exit 1")
    expect(err).toContain(
      `sales-tax-sandbox: cannot start: data directory ${dir} is in use by another sandbox (pid ${process.pid} on ${hostname()}`,
    )
    expect(err).toContain("stop that sandbox or use another --data-dir")
    // in process too: a second store on the directory is refused, the first one keeps working
    expect(() => new SandboxStore(dir)).toThrow(DataDirLockedError)
    expect((await call(a, "POST", `${C()}/orders`, { body: orderBody({ orderId: "still-mine" }) })).status).toBe(201)
    await a.close()
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false)
    const b = new SandboxStore(dir)
    expect(b.replayed).toBe(1)
    b.close()
  }, 30_000)

  it("takes over the lock left by a process that is gone (kill -9), and releases a lock taken by a store that fails to open", () => {
    const dir = tmp()
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" })
    const deadPid = Number(gone.stdout)
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid, host: hostname(), since: "2026-01-01T00:00:00.000Z" }))
    const s = new SandboxStore(dir)
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")).pid).toBe(process.pid)
    s.close()
    writeFileSync(join(dir, LOCK_FILE), "{torn") // a lock torn by a crash while writing it
    new SandboxStore(dir).close()
    writeFileSync(join(dir, JOURNAL_FILE), 'garbage\n{"v":1,"ops":[]}\n')
    expect(() => new SandboxStore(dir)).toThrow(/corrupt/)
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false)
  })
})
