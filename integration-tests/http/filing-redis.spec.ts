/**
 * Exactly once with Medusa's Redis modules: event bus (@medusajs/event-bus-redis), workflow engine
 * (@medusajs/workflow-engine-redis) and locking (@medusajs/locking-redis) on 127.0.0.1:6379.
 * The same events delivered several times, concurrently, give one filing and one refund per return.
 * Redis not answering is a failure, never a skip.
 */
import net from "node:net"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { Modules } from "@medusajs/framework/utils"
import { ADDRESSES, freshFilingStore, placeOrder, useSalesTaxSandbox } from "../helpers"
import { adminOrder, filingStore, fulfil, returnAndReceive, waitForFiling } from "../filing-helpers/medusa"

// a hang guard only (issue 29): a test ends as soon as its work does, and a loaded machine only makes
// that slower (under two busy loops and four other runs, checkout-block's outage test took over 120 s)
jest.setTimeout(15 * 60_000)

// npm test starts a redis-server for the run (scripts/run-tests.mjs); a direct jest run uses the machine's
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379"

function redisAnswers(url: string): Promise<boolean> {
  const u = new URL(url)
  return new Promise((resolve) => {
    const s = net.connect({ host: u.hostname, port: Number(u.port || 6379) })
    const done = (ok: boolean) => {
      s.destroy()
      resolve(ok)
    }
    s.setTimeout(1000, () => done(false))
    s.once("error", () => done(false))
    s.once("connect", () => s.write("PING\r\n"))
    s.once("data", (d) => done(d.toString().startsWith("+PONG")))
  })
}

{
  const env = useSalesTaxSandbox()
  const ns = `filing-test-${process.pid}`

  medusaIntegrationTestRunner({
    env: env.env,
    hooks: {
      // the runner reads medusa-config.ts; the Redis modules are added to that config here
      beforeServerStart: async (container) => {
        if (!(await redisAnswers(REDIS_URL)))
          throw new Error(`Redis does not answer at ${REDIS_URL} (npm test starts one; a direct jest run needs TEST_REDIS_URL)`)
        const cfg = container.resolve("configModule") as any
        cfg.projectConfig.redisUrl = REDIS_URL
        cfg.modules = {
          ...cfg.modules,
          [Modules.EVENT_BUS]: { resolve: "@medusajs/event-bus-redis", options: { redisUrl: REDIS_URL, queueName: `${ns}-events` } },
          [Modules.WORKFLOW_ENGINE]: {
            resolve: "@medusajs/workflow-engine-redis",
            options: { redis: { redisUrl: REDIS_URL, queueName: `${ns}-wf`, jobQueueName: `${ns}-jobs` } },
          },
          [Modules.LOCKING]: {
            resolve: "@medusajs/medusa/locking",
            options: {
              providers: [
                {
                  resolve: "@medusajs/locking-redis",
                  id: "locking-redis",
                  is_default: true,
                  options: { redisUrl: REDIS_URL, namespace: `${ns}:` },
                },
              ],
            },
          },
        }
      },
    },
    testSuite: ({ api, getContainer }) => {
      it("runs on the Redis modules, and duplicated concurrent events give one filing and one refund per return", async () => {
        const container = getContainer()
        expect((container.resolve(Modules.EVENT_BUS) as any).constructor.name).toMatch(/Redis/i)
        // the Redis engine's service holds its Redis disconnect handler; the in-memory one has none
        expect(typeof (container.resolve(Modules.WORKFLOW_ENGINE) as any).redisDisconnectHandler_).toBe("function")
        expect(String((container.resolve(Modules.LOCKING) as any).defaultProviderId)).toMatch(/redis/i)
        const { store, auth } = await freshFilingStore(container, env.sandbox)
        const { order } = await placeOrder(api, store, ADDRESSES.minneapolis, [
          [store.products.general.variantId, 3],
          [store.products.coffee.variantId, 2],
        ])
        const bus = container.resolve(Modules.EVENT_BUS) as any
        // order.placed delivered again five times, concurrently with the first delivery
        await Promise.all(Array.from({ length: 5 }, () => bus.emit({ name: "order.placed", data: { id: order.id } })))
        const rec = await waitForFiling(container, order.id, (r) => r.state === "completed", "completed")
        const o = await adminOrder(api, auth, order.id)
        await fulfil(
          api,
          auth,
          order.id,
          o.items.map((i: any) => ({ id: i.id, quantity: i.quantity })),
        )
        const lamp = o.items.find((i: any) => i.quantity === 3)
        const retId = await returnAndReceive(api, auth, order.id, [{ id: lamp.id, quantity: 2 }])
        await Promise.all(
          Array.from({ length: 4 }, () => bus.emit({ name: "order.return_received", data: { order_id: order.id, return_id: retId } })),
        )
        await waitForFiling(container, order.id, (r) => (r.refunds ?? []).some((x) => x.state === "refunded"), "refunded")
        // let every duplicate delivery finish before counting
        await new Promise((r) => setTimeout(r, 3000))
        await waitForFiling(container, order.id, (r) => r.next_attempt_at === null, "settled")
        const c = await env.sandbox.counts()
        // one filing: never voided and re-filed, never filed twice through the direct path
        expect(c.voidOrder ?? 0).toBe(0)
        expect(c.createOrder ?? 0).toBe(0)
        expect(c.cartToOrder ?? 0).toBeGreaterThanOrEqual(1)
        const svc = await env.sandbox.client.getOrder(order.id, { expandRefunds: true })
        expect(svc.refunds).toHaveLength(1)
        expect(svc.refunds![0]!.idempotencyKey).toBe(retId)
        expect(Math.abs(svc.refunds![0]!.items.find((i) => i.itemId === lamp.id)!.quantity)).toBe(2)
        expect((await filingStore(container).findRecord(order.id))?.refunds).toHaveLength(1)
        expect(rec.filed_tax).toBe(rec.charged_tax)
      })
    },
  })
}
