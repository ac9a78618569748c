// Test-only Medusa configuration for medusaIntegrationTestRunner (excluded from the package).
// Everything the plugin needs comes from environment variables, so a test can start the sandbox
// on an ephemeral port and point the app at it BEFORE the runner boots Medusa
// (integration-tests/helpers: useSalesTaxSandbox / salesTaxEnv).
//   SALES_TAX_BASE_URL, SALES_TAX_API_KEY, SALES_TAX_CONNECTION_ID  connection to the (sandbox) service
//   SALES_TAX_OPTIONS_JSON   extra plugin options merged over the defaults below (JSON object)
import { loadEnv, defineConfig } from "@medusajs/framework/utils"
import { existsSync } from "node:fs"
import { join } from "node:path"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

const salesTaxOptions = {
  connectionId: process.env.SALES_TAX_CONNECTION_ID || "00000000-0000-4000-8000-000000000000",
  apiKey: process.env.SALES_TAX_API_KEY || "sandbox-key",
  baseUrl: process.env.SALES_TAX_BASE_URL || "http://127.0.0.1:4010",
  origin: { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" },
  ...(process.env.SALES_TAX_OPTIONS_JSON ? JSON.parse(process.env.SALES_TAX_OPTIONS_JSON) : {}),
}

const has = (p: string) => existsSync(join(__dirname, p)) || existsSync(join(process.cwd(), p))

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: process.env.STORE_CORS || "*",
      adminCors: process.env.ADMIN_CORS || "*",
      authCors: process.env.AUTH_CORS || "*",
      jwtSecret: process.env.JWT_SECRET || "supersecret",
      cookieSecret: process.env.COOKIE_SECRET || "supersecret",
    },
  },
  modules: [
    {
      resolve: "@medusajs/medusa/tax",
      options: {
        providers: [{ resolve: "./src/providers/sales-tax", id: "sales-tax", options: salesTaxOptions }],
      },
    },
    { resolve: "./src/modules/sales-tax" },
    ...(has("src/modules/sales-tax-filing/service.ts") ? [{ resolve: "./src/modules/sales-tax-filing" }] : []),
  ],
})
