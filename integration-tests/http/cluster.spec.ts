/**
 * Two Medusa instances (`medusa start`, both MEDUSA_WORKER_MODE=shared) of one store on one
 * PostgreSQL, with Medusa's Redis event bus, workflow engine, locking and caching modules: orders
 * placed through the storefront API across both, returns and cancellations on a share of them,
 * one instance SIGKILLed mid-run and started again. Read back from the sandbox: every order filed
 * exactly once, every refund exactly once, every cancelled order voided; a certificate made through
 * one instance is seen at checkout on the other at once. (integration-tests/cluster/run-cluster.ts;
 * `npm run soak:cluster` runs 200 orders.)
 */
import { runCluster, type ClusterReport } from "../cluster/run-cluster"

// the last resort only: every wait inside is bounded by progress (scripts/stall.ts), so a hang ends
// within minutes while a loaded machine only makes the run slower (it took 11 min under load 20)
jest.setTimeout(60 * 60_000)

const ORDERS = Number(process.env.CLUSTER_ORDERS || 28)

describe("two instances on Redis", () => {
  let r: ClusterReport
  beforeAll(async () => {
    const redisUrl = process.env.TEST_REDIS_URL
    if (!redisUrl) throw new Error("TEST_REDIS_URL is not set: run through `npm test`, which starts a redis-server for the run")
    r = await runCluster({
      orders: ORDERS,
      redisUrl,
      log: (l) => process.stdout.write(`[cluster] ${new Date().toISOString().slice(11, 19)} ${l}\n`),
    })
  })

  it("placed the orders on both instances, with returns and cancellations", () => {
    // the certificate's two checkouts come on top of ORDERS
    expect(r.placed).toHaveLength(ORDERS + 2)
    expect(r.placed.filter((p) => p.instance === "B").length).toBeGreaterThanOrEqual(ORDERS / 3)
    expect(r.returned.length).toBe(Math.ceil(ORDERS / 5))
    expect(r.cancelled.length).toBeGreaterThan(0)
  })

  it("filed every order that was not cancelled exactly once, with the tax charged", () => {
    const cancelled = new Set(r.cancelled)
    const missing = r.placed.filter((p) => !cancelled.has(p.orderId) && !r.filed.has(p.orderId)).map((p) => p.orderId)
    expect(missing).toEqual([])
    expect(r.mismatches).toEqual([])
    // one service order per Medusa order (the service refuses a second under the same id); write
    // calls beyond that are re-tries after the SIGKILL that the service answered "already done"
    const filings = (r.counts.cartToOrder ?? 0) + (r.counts.createOrder ?? 0)
    expect(filings).toBeGreaterThanOrEqual(r.placed.length)
    expect(filings - r.placed.length).toBeLessThanOrEqual(4)
  })

  it("refunded every return exactly once, under the return's id", () => {
    for (const { orderId, returnId } of r.returned) expect(r.refunds.get(orderId)).toEqual([returnId])
    const refundsHeld = [...r.refunds.values()].reduce((n, keys) => n + keys.length, 0)
    expect(refundsHeld).toBe(r.returned.length)
  })

  it("voided every cancelled order", () => {
    expect(r.cancelled.filter((id) => !r.voided.has(id))).toEqual([])
  })

  it("a certificate created through one instance applies at the other's next checkout", () => {
    expect(r.certificate.before).toBeGreaterThan(0)
    expect(r.certificate.after).toBe(0)
  })
})
