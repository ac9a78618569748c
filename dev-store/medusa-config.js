// The one medusa-config of the development stores (dev-only: never shipped with the plugin).
// Each app's medusa-config calls buildMedusaConfig with only what differs:
//   medusa-config.ts                              the integration tests (the plugin from src/)
//   demo/app/medusa-config.js                     `npm run demo`, and the cluster test (Redis modules)
//   integration-tests/browser/app/medusa-config.js  the browser test (the admin on)
// Plain CommonJS (with medusa-config.d.ts for TypeScript) so that Medusa's CLI, which loads a
// JavaScript medusa-config without a TypeScript loader, can require it from the demo and browser apps.
const { defineConfig, loadEnv } = require("@medusajs/framework/utils")

/**
 * The plugin's options: the app's own (`defaults`) under the environment's:
 *   SALES_TAX_BASE_URL, SALES_TAX_API_KEY, SALES_TAX_CONNECTION_ID  the connection to the (sandbox) service
 *   SALES_TAX_CONNECTIONS_JSON  option `connections` (a JSON array: connections per sales channel)
 *   SALES_TAX_OPTIONS_JSON      more options merged over the rest (a JSON object)
 */
function salesTaxOptions(defaults, env) {
  const fromEnv = {}
  if (env.SALES_TAX_BASE_URL) fromEnv.baseUrl = env.SALES_TAX_BASE_URL
  if (env.SALES_TAX_API_KEY) fromEnv.apiKey = env.SALES_TAX_API_KEY
  if (env.SALES_TAX_CONNECTION_ID) fromEnv.connectionId = env.SALES_TAX_CONNECTION_ID
  if (env.SALES_TAX_CONNECTIONS_JSON) fromEnv.connections = JSON.parse(env.SALES_TAX_CONNECTIONS_JSON)
  return { ...defaults, ...fromEnv, ...(env.SALES_TAX_OPTIONS_JSON ? JSON.parse(env.SALES_TAX_OPTIONS_JSON) : {}) }
}

/**
 * Medusa's Redis event bus, workflow engine, locking and caching modules on one Redis, their queues
 * and keys under `namespace` (README "Production topology").
 */
function redisModules(redisUrl, namespace) {
  return [
    { resolve: "@medusajs/medusa/event-bus-redis", options: { redisUrl, queueName: `${namespace}-events` } },
    {
      resolve: "@medusajs/medusa/workflow-engine-redis",
      options: { redis: { redisUrl, queueName: `${namespace}-workflows`, jobQueueName: `${namespace}-jobs` } },
    },
    {
      resolve: "@medusajs/medusa/locking",
      options: {
        providers: [
          {
            resolve: "@medusajs/medusa/locking-redis",
            id: "locking-redis",
            is_default: true,
            options: { redisUrl, namespace: `${namespace}:` },
          },
        ],
      },
    },
    {
      resolve: "@medusajs/medusa/caching",
      options: {
        providers: [
          {
            resolve: "@medusajs/medusa/caching-redis",
            id: "caching-redis",
            is_default: true,
            options: { redisUrl, prefix: `${namespace}:` },
          },
        ],
      },
    },
  ]
}

/**
 * The plugin and its tax provider in the Tax Module, with the same options. "installed" is what a
 * store does (`medusa-sales-tax` from node_modules); "source" runs the repository itself as the
 * Medusa app (medusaIntegrationTestRunner: src/ is the app's own api, subscribers, workflows, and
 * its modules are listed here).
 */
function salesTaxModules(plugin, options) {
  if (plugin === "installed") {
    const provider = { resolve: "medusa-sales-tax/providers/sales-tax", id: "sales-tax", options }
    return {
      plugins: [{ resolve: "medusa-sales-tax", options }],
      modules: [{ resolve: "@medusajs/medusa/tax", options: { providers: [provider] } }],
    }
  }
  const provider = { resolve: "./src/providers/sales-tax", id: "sales-tax", options }
  return {
    plugins: [],
    modules: [
      { resolve: "@medusajs/medusa/tax", options: { providers: [provider] } },
      { resolve: "./src/modules/sales-tax" },
      { resolve: "./src/modules/sales-tax-filing" },
    ],
  }
}

/**
 * Loads the app's .env (loadEnv: NODE_ENV, else `o.nodeEnv`), then reads from the environment
 * DATABASE_URL, the plugin's connection (salesTaxOptions above), STORE_CORS / ADMIN_CORS / AUTH_CORS
 * (default "*"), JWT_SECRET / COOKIE_SECRET (default `o.secret`). Each option: medusa-config.d.ts.
 */
function buildMedusaConfig(o) {
  loadEnv(process.env.NODE_ENV || o.nodeEnv, process.cwd())
  const env = process.env
  const { plugins, modules } = salesTaxModules(o.plugin, salesTaxOptions(o.salesTax, env))
  const redis = o.redis
  return defineConfig({
    projectConfig: {
      databaseUrl: env.DATABASE_URL,
      ...(redis ? { redisUrl: redis.url } : {}),
      ...(o.workerMode ? { workerMode: o.workerMode } : {}),
      http: {
        storeCors: env.STORE_CORS || "*",
        adminCors: env.ADMIN_CORS || "*",
        authCors: env.AUTH_CORS || "*",
        jwtSecret: env.JWT_SECRET || o.secret,
        cookieSecret: env.COOKIE_SECRET || o.secret,
      },
    },
    ...(o.admin === undefined ? {} : { admin: { disable: !o.admin, path: "/app", backendUrl: "/" } }),
    ...(redis ? { featureFlags: { caching: true } } : {}),
    plugins,
    modules: [...(redis ? redisModules(redis.url, redis.namespace) : []), ...modules],
  })
}

module.exports = { buildMedusaConfig }
