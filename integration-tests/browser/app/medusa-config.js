// Medusa app for the browser tests: the admin on, the plugin installed from the repository root
// (node_modules/medusa-sales-tax is a symlink the harness makes). Everything comes from the
// environment that integration-tests/browser/harness.ts sets.
const { defineConfig, loadEnv } = require("@medusajs/framework/utils")

loadEnv(process.env.NODE_ENV || "production", process.cwd())

const salesTaxOptions = {
  baseUrl: process.env.SALES_TAX_BASE_URL || "http://127.0.0.1:4010",
  apiKey: process.env.SALES_TAX_API_KEY || "sandbox-key",
  connectionId: process.env.SALES_TAX_CONNECTION_ID || "00000000-0000-4000-8000-000000000000",
  origin: { line1: "1 Market St", city: "San Francisco", state: "CA", zip: "94105" },
  failurePolicy: "fallback",
  // a second connection for one sales channel (the harness sets it; issue 16)
  connections: process.env.SALES_TAX_CONNECTIONS_JSON ? JSON.parse(process.env.SALES_TAX_CONNECTIONS_JSON) : [],
}

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: "*",
      adminCors: "*",
      authCors: "*",
      jwtSecret: "browser-test-secret",
      cookieSecret: "browser-test-secret",
    },
  },
  admin: {
    disable: false,
    path: "/app",
    backendUrl: "/",
  },
  plugins: [{ resolve: "medusa-sales-tax", options: salesTaxOptions }],
  modules: [
    {
      resolve: "@medusajs/medusa/tax",
      options: {
        providers:
          process.env.SALES_TAX_WITH_PROVIDER === "0"
            ? []
            : [{ resolve: "medusa-sales-tax/providers/sales-tax", id: "sales-tax", options: salesTaxOptions }],
      },
    },
  ],
})
