// The demo store's configuration: what a merchant adds to an existing Medusa 2.21 store to install
// medusa-sales-tax: the plugin (its modules, workflows, subscribers, jobs, admin routes and
// widgets) and its tax provider in the Tax Module, with ONE options object for both.
// `npm run demo` sets the environment below; it points at the in-process sandbox of the service.
// (Plain JavaScript so that Medusa's CLI loads it without a TypeScript loader.)
const { defineConfig, loadEnv } = require("@medusajs/framework/utils")

loadEnv(process.env.NODE_ENV || "development", process.cwd())

/** Plugin options (validated at boot; every option and its default: docs/provider.md). */
const salesTax = {
  baseUrl: process.env.SALES_TAX_BASE_URL,
  apiKey: process.env.SALES_TAX_API_KEY,
  connectionId: process.env.SALES_TAX_CONNECTION_ID,
  // where the goods ship from
  origin: { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" },
  // the demo wants the service's tax or a loud failure, never an estimate
  failurePolicy: "block",
  completionMode: "placed",
  // a second brand / channel on a connection of its own (issue 16): the demo's wholesale channel
  connections: process.env.SALES_TAX_CONNECTIONS_JSON ? JSON.parse(process.env.SALES_TAX_CONNECTIONS_JSON) : [],
}

// Growing past one machine (README "Production topology"): with DEMO_REDIS_URL set, the store runs
// on Medusa's Redis event bus, workflow engine, locking and caching modules, so several instances
// (`medusa start` with MEDUSA_WORKER_MODE shared | server | worker) share one database and one
// queue. The cluster test (integration-tests/cluster) starts two this way.
const redisUrl = process.env.DEMO_REDIS_URL
const ns = process.env.DEMO_REDIS_NAMESPACE || "medusa-sales-tax-demo"
const redisModules = redisUrl
  ? [
      { resolve: "@medusajs/medusa/event-bus-redis", options: { redisUrl, queueName: `${ns}-events` } },
      {
        resolve: "@medusajs/medusa/workflow-engine-redis",
        options: { redis: { redisUrl, queueName: `${ns}-workflows`, jobQueueName: `${ns}-jobs` } },
      },
      {
        resolve: "@medusajs/medusa/locking",
        options: {
          providers: [
            {
              resolve: "@medusajs/medusa/locking-redis",
              id: "locking-redis",
              is_default: true,
              options: { redisUrl, namespace: `${ns}:` },
            },
          ],
        },
      },
      {
        resolve: "@medusajs/medusa/caching",
        options: {
          providers: [
            { resolve: "@medusajs/medusa/caching-redis", id: "caching-redis", is_default: true, options: { redisUrl, prefix: `${ns}:` } },
          ],
        },
      },
    ]
  : []

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    redisUrl,
    workerMode: process.env.MEDUSA_WORKER_MODE || "shared",
    http: {
      storeCors: process.env.STORE_CORS || "*",
      adminCors: process.env.ADMIN_CORS || "*",
      authCors: process.env.AUTH_CORS || "*",
      jwtSecret: process.env.JWT_SECRET || "demo-jwt-secret",
      cookieSecret: process.env.COOKIE_SECRET || "demo-cookie-secret",
    },
  },
  // the admin is built and served only by `npm run demo -- --serve`
  admin: {
    disable: process.env.DEMO_ADMIN !== "1",
    path: "/app",
    backendUrl: "/",
  },
  featureFlags: redisUrl ? { caching: true } : {},
  plugins: [{ resolve: "medusa-sales-tax", options: salesTax }],
  modules: [
    ...redisModules,
    {
      resolve: "@medusajs/medusa/tax",
      options: {
        providers: [{ resolve: "medusa-sales-tax/providers/sales-tax", id: "sales-tax", options: salesTax }],
      },
    },
  ],
})
