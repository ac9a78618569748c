import { spawn, type ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { parseCliArgs } from "../cli"
import { CONN, certBody, orderBody, rawRequest } from "./helpers"

/**
 * Durability: the CLI with --data-dir is killed with SIGKILL while writes are in flight; after a
 * restart on the same directory every acknowledged write is there.
 */
const ROOT = resolve(__dirname, "../..")
const KEY = "kill-test-key"
const dirs: string[] = []
const children: ChildProcess[] = []
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL")
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }))
})

function startCli(args: string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ["--require", require.resolve("tsx/cjs"), join(ROOT, "src/cli.ts"), ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  })
  children.push(child)
  return new Promise((res, rej) => {
    let out = ""
    let err = ""
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString()
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)
      if (m) res({ child, port: Number(m[1]) })
    })
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()))
    child.on("exit", (code) => rej(new Error(`cli exited ${code}: ${err}`)))
  })
}

const h = { "x-api-key": KEY, "content-type": "application/json" }
const C = `/tax/connections/${CONN}`

describe("kill -9 under writes", () => {
  it("finds every acknowledged write after a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-kill-"))
    dirs.push(dir)
    const args = ["--port", "0", "--api-key", KEY, "--connection-id", CONN, "--data-dir", dir]
    const first = await startCli(args)

    const ackedOrders: string[] = []
    const ackedCerts: string[] = []
    const ackedRefunds: [string, string][] = []
    const ackedVoids: string[] = []
    const voidsSent = new Set<string>() // a void in flight at the kill may or may not have landed
    let stop = false
    let seq = 0
    const worker = async (w: number) => {
      while (!stop) {
        const id = `k-${w}-${seq++}`
        const o = await rawRequest(
          first.port,
          "POST",
          `${C}/orders`,
          h,
          JSON.stringify(orderBody({ orderId: id, completedDate: undefined, completed: false })),
        )
        if (o.status === -1) return
        if (o.status === 201) ackedOrders.push(id)
        const c = await rawRequest(first.port, "POST", `${C}/exemption-certificates`, h, JSON.stringify(certBody({ customerId: id })))
        if (c.status === -1) return
        if (c.status === 201) ackedCerts.push(JSON.parse(c.raw).certificateId)
        if (o.status === 201 && seq % 3 === 0) {
          const r = await rawRequest(
            first.port,
            "POST",
            `${C}/orders/refunds/${id}`,
            h,
            JSON.stringify({ items: [{ itemId: "a", quantity: 1 }], idempotencyKey: `rk-${id}` }),
          )
          if (r.status === -1) return
          if (r.status === 201) ackedRefunds.push([id, `rk-${id}`])
        } else if (o.status === 201 && seq % 5 === 0) {
          voidsSent.add(id)
          const v = await rawRequest(first.port, "DELETE", `${C}/orders/${id}`, { "x-api-key": KEY })
          if (v.status === -1) return
          if (v.status === 204) ackedVoids.push(id)
        }
      }
    }
    const workers = Array.from({ length: 6 }, (_, i) => worker(i))
    // kill once a good number of writes were acknowledged, with requests still in flight
    await new Promise<void>((res) => {
      const t = setInterval(() => {
        if (ackedOrders.length + ackedCerts.length >= 300) {
          clearInterval(t)
          res()
        }
      }, 5)
    })
    const exited = new Promise((r) => first.child.on("exit", r))
    first.child.kill("SIGKILL")
    await exited
    stop = true
    await Promise.all(workers)
    expect(first.child.signalCode).toBe("SIGKILL")

    const second = await startCli(args)
    const voided = new Set(ackedVoids)
    for (const id of ackedOrders) {
      const r = await rawRequest(second.port, "GET", `${C}/orders/${id}?expand=refunds`, { "x-api-key": KEY })
      if (voidsSent.has(id) && !voided.has(id)) expect([200, 404]).toContain(r.status)
      else expect([id, r.status]).toEqual([id, voided.has(id) ? 404 : 200])
    }
    for (const [id, key] of ackedRefunds) {
      if (voided.has(id)) continue
      const r = await rawRequest(second.port, "GET", `${C}/orders/${id}?expand=refunds`, { "x-api-key": KEY })
      expect(JSON.parse(r.raw).refunds.map((x: { idempotencyKey: string }) => x.idempotencyKey)).toContain(key)
    }
    for (const id of ackedCerts) {
      const r = await rawRequest(second.port, "GET", `${C}/exemption-certificates/${id}`, { "x-api-key": KEY })
      expect([id, r.status]).toEqual([id, 200])
    }
    expect(ackedOrders.length).toBeGreaterThan(50)
    const closed = new Promise((r) => second.child.on("exit", r))
    second.child.kill("SIGTERM")
    expect(await closed).toBe(0)
  }, 90_000)

  it("the CLI rejects bad arguments with exit code 2 and a message", async () => {
    // main() exits 2 with "sales-tax-sandbox: <message>" on whatever parseCliArgs throws: each bad
    // argument is checked in-process, the exit once as a process (a process per case cost ~2 CPU s:
    // tsx and the sandbox's imports)
    const bad: [string[], RegExp][] = [
      [["--port", "70000"], /--port must be an integer from 0 to 65535/],
      [["--connection-id", "short"], /--connection-id must be at least 36 characters/],
      [["--nope"], /--nope/],
      [["--port"], /--port/],
    ]
    for (const [args, message] of bad) expect(() => parseCliArgs(args)).toThrow(message)
    expect(parseCliArgs(["--port", "0", "--connection-id", "x".repeat(36)]).port).toBe(0)
    const child = spawn(process.execPath, ["--require", require.resolve("tsx/cjs"), join(ROOT, "src/cli.ts"), "--port", "70000"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    })
    let err = ""
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()))
    const code = await new Promise((r) => child.on("exit", r))
    expect(code).toBe(2)
    expect(err).toMatch(/^sales-tax-sandbox: --port must be an integer from 0 to 65535\n/)
  }, 60_000)

  it("with --log, request logs never contain an API key (header, Bearer or query string)", async () => {
    const secret = "log-secret-key-98765"
    const child = spawn(
      process.execPath,
      ["--require", require.resolve("tsx/cjs"), join(ROOT, "src/cli.ts"), "--port", "0", "--log", "--api-key", secret],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
    )
    children.push(child)
    let out = ""
    child.stdout!.on("data", (d: Buffer) => (out += d.toString()))
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()))
    const port = await new Promise<number>((res) => {
      const t = setInterval(() => {
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)
        if (m) {
          clearInterval(t)
          res(Number(m[1]))
        }
      }, 10)
    })
    expect((await rawRequest(port, "GET", `${C}/ping`, { "x-api-key": secret })).status).toBe(200)
    expect((await rawRequest(port, "GET", `${C}/ping`, { authorization: `Bearer ${secret}` })).status).toBe(200)
    expect((await rawRequest(port, "GET", `/tax/health?apiKey=${secret}`, {})).status).toBe(200)
    expect((await rawRequest(port, "GET", `${C}/ping`, { "x-api-key": `${secret}-wrong` })).status).toBe(401)
    const exited = new Promise((r) => child.on("exit", r))
    child.kill("SIGTERM")
    await exited
    expect(out).toMatch(/incoming request|request completed/)
    expect(out).not.toContain(secret)
  }, 60_000)
})
