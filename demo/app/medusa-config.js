// The demo store's configuration: what a merchant adds to an existing Medusa 2.21 store to install
// medusa-sales-tax: the plugin (its modules, workflows, subscribers, jobs, admin routes and
// widgets) and its tax provider in the Tax Module, with ONE options object for both; built by the
// development stores' one builder (dev-store/medusa-config.js; README "Install into an existing store" shows it written out).
// `npm run demo` sets the environment: the connection (SALES_TAX_BASE_URL, SALES_TAX_API_KEY,
// SALES_TAX_CONNECTION_ID, SALES_TAX_CONNECTIONS_JSON) points at the in-process sandbox of the service.
// (Plain JavaScript so that Medusa's CLI loads it without a TypeScript loader.)
const { buildMedusaConfig } = require("../../dev-store/medusa-config")

// Growing past one machine (README "Production topology"): with DEMO_REDIS_URL set, the store runs
// on Medusa's Redis event bus, workflow engine, locking and caching modules, so several instances
// (`medusa start` with MEDUSA_WORKER_MODE shared | server | worker) share one database and one
// queue. The cluster test (integration-tests/cluster) starts two this way.
const redisUrl = process.env.DEMO_REDIS_URL

module.exports = buildMedusaConfig({
  nodeEnv: "development",
  plugin: "installed",
  // plugin options (validated at boot; every option and its default: docs/provider.md)
  salesTax: {
    // where the goods ship from
    origin: { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" },
    // the demo wants the service's tax or a loud failure, never an estimate
    failurePolicy: "block",
    completionMode: "placed",
    // CI runs the demo at nice 10 beside `npm test` (.ci/run): a starved demo must not read as an outage
    ...(process.env.DEMO_SALES_TAX_TIMEOUT_MS ? { timeoutMs: Number(process.env.DEMO_SALES_TAX_TIMEOUT_MS) } : {}),
  },
  secret: "demo-secret",
  // the admin is built and served only by `npm run demo -- --serve`
  admin: process.env.DEMO_ADMIN === "1",
  redis: redisUrl ? { url: redisUrl, namespace: process.env.DEMO_REDIS_NAMESPACE || "medusa-sales-tax-demo" } : undefined,
  workerMode: process.env.MEDUSA_WORKER_MODE || "shared",
})
