/**
 * Two Medusa instances of one store on Redis, driven through the storefront and admin APIs, with a
 * SIGKILL of one instance mid-run; then what the sandbox of the service holds is read back.
 *
 *   - the demo store (demo/app, its seed and its plugin install) on one PostgreSQL database, with
 *     DEMO_REDIS_URL set: Medusa's Redis event bus, workflow engine, locking and caching modules
 *   - instances A and B: `medusa start`, both MEDUSA_WORKER_MODE=shared (each serves HTTP and
 *     runs subscribers and scheduled jobs), the sandbox in process on an ephemeral port
 *   - guest orders placed through the storefront API (4 calls each) alternately on A and B, four at a
 *     time; every 5th order is
 *     fulfilled and partly returned, every 7th cancelled (admin API, alternating instances)
 *   - halfway, B is SIGKILLed while its event handlers are at work, and started again
 *   - a registered customer's certificate created through A changes the tax of its next checkout
 *     on B at once (after B cached the customer's certificate list)
 *
 * Used by integration-tests/http/cluster.spec.ts (60 orders, in `npm test`) and
 * bench/cluster-soak.ts (`npm run soak:cluster`, 200 orders).
 */
import { mkdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import Medusa from "@medusajs/js-sdk"
import { Client } from "pg"
import { installPlugin } from "../../demo/lib/plugin-install"
import { DATA_DIR, migrate, seed as seedStore, startStore, type AppEnv } from "../../demo/lib/medusa"
import { freePort, shutdown } from "../../demo/lib/processes"
import {
  PLAN,
  EXEMPT_STATE,
  addExemptCertificate,
  cancelOrder,
  chargedOrder,
  checkout,
  loginExemptCustomer,
  registerExemptCustomer,
  makeCtx,
  returnItems,
  type Ctx,
  type PlannedOrder,
} from "../../demo/lib/scenario"
import type { DemoSeed } from "../../demo/app/seed"
import { SalesTaxError } from "../../src/service/client"
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox"
import { startStall, stallVerdict } from "../../scripts/stall"
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createDatabaseSql, putAway } = require("../db-template.js") as {
  createDatabaseSql(name: string): string
  putAway(admin: Client, db: string): Promise<unknown>
}

export interface ClusterOptions {
  orders: number
  redisUrl: string
  /** progress lines */
  log?: (line: string) => void
  /** the catch-up stops after this long without one more order done at the service (default 180 s) */
  catchUpMs?: number
}

export interface ClusterReport {
  placed: { orderId: string; instance: "A" | "B"; taxTotal: number }[]
  returned: { orderId: string; returnId: string }[]
  cancelled: string[]
  /** orders the service holds (by id; a voided one is not held) */
  filed: Set<string>
  /** refunds the service holds per order, with their idempotency keys */
  refunds: Map<string, string[]>
  /** cancelled orders the service confirms voided */
  voided: Set<string>
  /** sandbox request counts per operation, read before the void check */
  counts: Record<string, number>
  /** tax of the registered customer's TX checkout on B before and right after the certificate made on A */
  certificate: { before: number; after: number }
  /** filed net tax (lines − refunds) ≠ charged net tax (Medusa), per order, in cents */
  mismatches: string[]
  elapsedMs: number
}

function databaseUrl(db: string): string {
  const user = process.env.DB_USERNAME || "postgres"
  const password = process.env.DB_PASSWORD
  const host = process.env.DB_HOST || "localhost"
  const port = process.env.DB_PORT || "5432"
  const auth = password ? `${encodeURIComponent(user)}:${encodeURIComponent(password)}` : encodeURIComponent(user)
  return `postgres://${auth}@${host === "localhost" ? "127.0.0.1" : host}:${port}/${db}`
}

async function admin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: databaseUrl("postgres") })
  await c.connect()
  try {
    return await fn(c)
  } finally {
    await c.end()
  }
}

/** Runs `fn` over `items` with at most `n` at a time, in order of start. */
async function pool<T, R>(items: T[], n: number, fn: (t: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++
        out[i] = await fn(items[i]!, i)
      }
    }),
  )
  return out
}

const cents = (n: number) => Math.round(n * 100)

interface GuestOrder {
  orderId: string
  taxTotal: number
  items: { id: string; quantity: number }[]
}

/**
 * A guest checkout in four store calls (cart with items, address and e-mail; shipping; payment
 * session; complete): the demo's `checkout` takes a call per step to show them.
 */
async function guestCheckout(ctx: Ctx, plan: PlannedOrder, email: string): Promise<GuestOrder> {
  const sdk = new Medusa({ baseUrl: ctx.storeUrl, publishableKey: ctx.seed.publishableKey })
  const { cart } = await sdk.store.cart.create({
    region_id: ctx.seed.regionId,
    email,
    items: plan.items.map((it) => ({ variant_id: ctx.seed.products[it.product].variantId, quantity: it.quantity })),
    shipping_address: plan.address,
    billing_address: plan.address,
  })
  const { cart: withShipping } = await sdk.store.cart.addShippingMethod(cart.id, { option_id: ctx.seed.shippingOptionId })
  await sdk.store.payment.initiatePaymentSession(withShipping, { provider_id: "pp_system_default" })
  const res = await sdk.store.cart.complete(cart.id)
  if (res.type !== "order")
    throw new Error(`checkout to ${plan.label}: the cart was not completed: ${res.error?.message ?? "unknown reason"}`)
  return {
    orderId: res.order.id,
    taxTotal: Number(res.order.tax_total),
    items: (res.order.items ?? []).map((i) => ({ id: i.id, quantity: Number(i.quantity) })),
  }
}

async function serviceOrder(sandbox: TestSandbox, orderId: string) {
  try {
    return await sandbox.client.getOrder(orderId, { expandRefunds: true })
  } catch (e) {
    if (e instanceof SalesTaxError && e.status === 404) return null
    throw e
  }
}

export async function runCluster(o: ClusterOptions): Promise<ClusterReport> {
  const log = o.log ?? (() => undefined)
  const started = Date.now()
  // its own logs and compiled seed, apart from the demo's (CI runs `npm run demo` beside the tests)
  const logDir = join(DATA_DIR, "cluster", "logs")
  mkdirSync(logDir, { recursive: true })
  const db = `medusa_sales_tax_cluster_${process.pid}_${Date.now().toString(36)}`
  const sandbox = await startTestSandbox()
  try {
    await admin((c) => c.query(createDatabaseSql(db)))
    const env: AppEnv = {
      databaseUrl: databaseUrl(db),
      salesTaxBaseUrl: sandbox.url,
      salesTaxApiKey: sandbox.apiKey,
      salesTaxConnectionId: sandbox.connectionId,
      admin: false,
      adminEmail: "admin@cluster.test",
      adminPassword: "cluster-test-password-1",
      logDir,
      scriptDir: join(DATA_DIR, "cluster", "seed"),
    }
    log("installing the plugin into the demo store, migrating, seeding")
    await installPlugin({ admin: false })
    await migrate(env)
    const seedOut = join(DATA_DIR, "cluster", `seed-${process.pid}.json`)
    await seedStore(env, seedOut)
    const seed = JSON.parse(readFileSync(seedOut, "utf8")) as DemoSeed
    const instanceEnv = { DEMO_REDIS_URL: o.redisUrl, DEMO_REDIS_NAMESPACE: `cluster-${process.pid}`, MEDUSA_WORKER_MODE: "shared" }
    const [portA, portB] = [await freePort(), await freePort()]
    log("starting instances A and B")
    const [a, firstB] = await Promise.all([
      startStore(env, portA, { name: "cluster-a", env: instanceEnv }),
      startStore(env, portB, { name: "cluster-b", env: instanceEnv }),
    ])
    let b = firstB
    const ctxA = makeCtx(a.url, seed, sandbox.client)
    let ctxB = makeCtx(b.url, seed, sandbox.client)
    let bDown = false
    const ctxOf = (i: number): { ctx: Ctx; instance: "A" | "B" } =>
      i % 2 === 1 && !bDown ? { ctx: ctxB, instance: "B" } : { ctx: ctxA, instance: "A" }

    // the registered customer checks out on B first, so that B caches its (empty) certificate list
    const texas = PLAN.find((p) => p.shopper === "exempt")!
    const shopper = await registerExemptCustomer(ctxA)
    const exemptOnB = { email: shopper.email, sdk: await loginExemptCustomer(ctxA, b.url) }
    const before = await chargedOrder(ctxA, (await checkout(ctxB, texas, exemptOnB)).orderId)

    const report: ClusterReport = {
      placed: [],
      returned: [],
      cancelled: [],
      filed: new Set(),
      refunds: new Map(),
      voided: new Set(),
      counts: {},
      certificate: { before: before.taxTotal, after: NaN },
      mismatches: [],
      elapsedMs: 0,
    }
    report.placed.push({ orderId: before.orderId, instance: "B", taxTotal: before.taxTotal })

    // the certificate is made through A; B's very next quote must see it
    await addExemptCertificate(ctxA, shopper.customerId)
    const after = await chargedOrder(ctxA, (await checkout(ctxB, texas, exemptOnB)).orderId)
    report.certificate.after = after.taxTotal
    report.placed.push({ orderId: after.orderId, instance: "B", taxTotal: after.taxTotal })

    const guests = PLAN.filter((p) => p.shopper === "guest")
    const half = Math.floor(o.orders / 2)
    const placeBatch = async (from: number, to: number) =>
      pool(
        Array.from({ length: to - from }, (_, k) => from + k),
        4,
        async (i) => {
          const { ctx, instance } = ctxOf(i)
          const placed = await guestCheckout(ctx, guests[i % guests.length]!, `guest-${i}@cluster.example`)
          report.placed.push({ orderId: placed.orderId, instance, taxTotal: placed.taxTotal })
          if (i % 5 === 0) {
            await ctx.admin.admin.order.createFulfillment(placed.orderId, { items: placed.items })
            report.returned.push({
              orderId: placed.orderId,
              returnId: await returnItems(ctx, placed.orderId, [{ id: placed.items[0]!.id, quantity: 1 }]),
            })
          } else if (i % 7 === 0) {
            await cancelOrder(ctx, placed.orderId)
            report.cancelled.push(placed.orderId)
          }
        },
      )

    log(`placing ${half} orders across A and B`)
    await placeBatch(0, half)
    // B crashes while its subscribers and workflows work through the events of the last orders
    log("SIGKILL instance B")
    bDown = true
    b.kill()
    await b.exited
    await placeBatch(half, half + Math.min(10, o.orders - half))
    log("starting instance B again")
    b = await startStore(env, portB, { name: "cluster-b2", env: instanceEnv })
    ctxB = makeCtx(b.url, seed, sandbox.client)
    bDown = false
    await placeBatch(half + Math.min(10, o.orders - half), o.orders)

    // catch up: every order at the service, every return refunded, every cancel voided
    log("waiting for the instances to catch up")
    // bounded by progress (scripts/stall.ts): waits while orders keep reaching the service; stops
    // after catchUpMs without one more order done (or at the cap), and the report says what is missing
    const bound = { stallMs: o.catchUpMs ?? 180_000, capMs: 30 * 60_000, minStep: 1 }
    let catchUp = startStall(Date.now())
    const cancelled = new Set(report.cancelled)
    const pending = () =>
      pool(report.placed, 8, async (p) => {
        const held = await serviceOrder(sandbox, p.orderId)
        if (cancelled.has(p.orderId)) return held === null ? null : p.orderId
        if (!held) return p.orderId
        const want = report.returned.filter((r) => r.orderId === p.orderId).length
        return (held.refunds ?? []).length === want ? null : p.orderId
      })
    let left: (string | null)[] = await pending()
    const done = () => left.filter((x) => x === null).length
    while (left.some(Boolean)) {
      const verdict = stallVerdict(bound, catchUp, done(), Date.now())
      catchUp = verdict.state
      if (verdict.stop) break
      await new Promise((r) => setTimeout(r, 2000))
      left = await pending()
    }
    // what the service holds, and its request counts, before the void check below writes
    report.counts = await sandbox.counts()
    const returnedIds = new Set(report.returned.map((r) => r.orderId))
    for (const p of report.placed) {
      const held = await serviceOrder(sandbox, p.orderId)
      if (!held) continue
      report.filed.add(p.orderId)
      report.refunds.set(
        p.orderId,
        (held.refunds ?? []).map((r) => r.idempotencyKey ?? "(no key)"),
      )
      // charged = filed for the orders without after-sale changes (the lifecycle spec covers the rest)
      if (returnedIds.has(p.orderId)) continue
      const filed = held.lineItems.reduce((s, l) => s + cents(Number(l.tax.amount)), 0)
      if (filed !== cents(p.taxTotal)) report.mismatches.push(`${p.orderId}: charged ${cents(p.taxTotal)}¢, filed ${filed}¢`)
    }
    // a voided order is gone from the service, and voiding it again answers 204 (an order that
    // was never filed answers 404)
    for (const id of report.cancelled) {
      if (report.filed.has(id)) continue
      try {
        await sandbox.client.voidOrder(id)
        report.voided.add(id)
      } catch (e) {
        if (!(e instanceof SalesTaxError && e.status === 404)) throw e
      }
    }
    report.elapsedMs = Date.now() - started
    return report
  } finally {
    await shutdown()
    await sandbox.close().catch(() => undefined)
    await admin((c) => putAway(c, db)).catch((e) => console.warn(`[cluster] database ${db} not put away: ${(e as Error).message}`))
  }
}

export { EXEMPT_STATE }
