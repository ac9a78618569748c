/**
 * The plain-Medusa side of `npm run bench:store` (bench/store.bench.ts starts this jest file in a
 * child process; no test pattern matches it otherwise): Medusa booted by medusaIntegrationTestRunner
 * from bench/plain-app (no plugin at all), seeded like the plugin side's store (the same products,
 * prices and addresses) with its US tax region on Medusa's system provider at a 9.025 % default rate
 * (Minneapolis, the plugin side's US destination) and a Canadian one at 13 %. It writes where it
 * serves to BENCH_PLAIN_OUT, then serves until the bench says stop; a small control server answers
 * how many SQL statements ran on Medusa's connection so far (knex's `query` event), as the bench
 * counts them in its own process, the process's CPU so far and its own view of the last mutation.
 * Imports nothing of the plugin's (its workflow hooks would register on Medusa's workflows).
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { createRegionsWorkflow, createTaxRegionsWorkflow } from "@medusajs/core-flows"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { asValue } from "@medusajs/framework/awilix"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { PRODUCTS, seedStore } from "../dev-store/seed"
import { serverTimings } from "./server-timing"

const timings = serverTimings()

jest.setTimeout(3_600_000)

/** What the plain app tells the bench (BENCH_PLAIN_OUT, JSON). */
export interface PlainStore {
  url: string
  control: string
  publishableKey: string
  usRegionId: string
  canadaRegionId: string
  variants: { general: string; shirt: string; coffee: string }
}

medusaIntegrationTestRunner({
  cwd: join(__dirname, "plain-app"),
  testSuite: ({ api, getContainer }) => {
    it("serves the plain store until the bench is done", async () => {
      const container = getContainer()
      // the dev store's seed assigns TICs through the plugin's module: a no-op here
      container.register("salesTax", asValue({ setTic: async () => undefined }))
      const store = await seedStore(container, {
        providerId: "tp_system",
        channelName: "Webshop",
        createdBy: "bench",
        products: { general: PRODUCTS.lamp, shirt: PRODUCTS.tshirt, coffee: PRODUCTS.coffee },
        shippingRegionPrice: true,
        regionDefaultRate: 9.025,
      })
      const {
        result: [canada],
      } = await createRegionsWorkflow(container).run({
        input: {
          regions: [
            { name: "Canada", currency_code: "usd", countries: ["ca"], automatic_taxes: true, payment_providers: ["pp_system_default"] },
          ],
        },
      })
      await createTaxRegionsWorkflow(container).run({
        input: [{ country_code: "ca", provider_id: "tp_system", default_tax_rate: { rate: 13, code: "CA-DEFAULT", name: "Canada" } }],
      })
      let sql = 0
      const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as { on(e: string, f: () => void): void }
      pg.on("query", () => sql++)
      let stop!: () => void
      const stopped = new Promise<void>((r) => (stop = r))
      const control = createServer((req, res) => {
        if (req.url === "/stop") stop()
        res.setHeader("content-type", "application/json")
        const cpu = process.cpuUsage()
        res.end(JSON.stringify({ sql, cpuMs: (cpu.user + cpu.system) / 1000, last: timings.last() }))
      })
      await new Promise<void>((r) => control.listen(0, "127.0.0.1", r))
      const out: PlainStore = {
        url: String(api.defaults.baseURL),
        control: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
        publishableKey: store.publishableKey,
        usRegionId: store.regionId,
        canadaRegionId: canada.id,
        variants: {
          general: store.products.general.variantId,
          shirt: store.products.shirt.variantId,
          coffee: store.products.coffee.variantId,
        },
      }
      writeFileSync(process.env.BENCH_PLAIN_OUT!, JSON.stringify(out))
      await stopped
      control.close()
    })
  },
})
