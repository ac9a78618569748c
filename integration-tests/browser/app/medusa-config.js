// Medusa app for the browser tests: the admin on, the plugin installed into app/node_modules by the
// harness (integration-tests/browser/harness.ts), which sets the environment: the connection
// (SALES_TAX_BASE_URL, SALES_TAX_API_KEY, SALES_TAX_CONNECTION_ID) and a second connection for one
// sales channel (SALES_TAX_CONNECTIONS_JSON, issue 16). Built by the development stores' one
// builder (dev-store/medusa-config.js).
const { buildMedusaConfig } = require("../../../dev-store/medusa-config")

module.exports = buildMedusaConfig({
  nodeEnv: "production",
  plugin: "installed",
  salesTax: {
    baseUrl: "http://127.0.0.1:4010",
    apiKey: "sandbox-key",
    connectionId: "00000000-0000-4000-8000-000000000000",
    origin: { line1: "1 Market St", city: "San Francisco", state: "CA", zip: "94105" },
    failurePolicy: "fallback",
  },
  secret: "browser-test-secret",
  admin: true,
})
