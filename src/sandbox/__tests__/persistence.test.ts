import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { JOURNAL_FILE, SandboxStore } from "../store"
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
    a.commit([{ op: "put", coll: "orders", conn: "c", id: "1", value: { v: 1 } }, { op: "put", coll: "carts", conn: "c", id: "k", value: { v: 2 } }])
    a.commit([{ op: "put", coll: "orders", conn: "c", id: "2", value: { v: 3 } }])
    a.commit([{ op: "del", coll: "orders", conn: "c", id: "1" }, { op: "put", coll: "voided", conn: "c", id: "1", value: { orderId: "1" } }])
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
