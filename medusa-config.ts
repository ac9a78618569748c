// The integration tests' Medusa configuration (medusaIntegrationTestRunner runs the repository as
// the Medusa app: the plugin from src/; excluded from the package). The one builder of the
// development stores' configs: dev-store/medusa-config.js. The plugin's connection comes from the
// environment, so a test can start the sandbox on an ephemeral port and point the app at it BEFORE
// the runner boots Medusa (integration-tests/helpers: useSalesTaxSandbox / salesTaxEnv):
//   SALES_TAX_BASE_URL, SALES_TAX_API_KEY, SALES_TAX_CONNECTION_ID  connection to the (sandbox) service
//   SALES_TAX_OPTIONS_JSON   extra plugin options merged over the defaults below (JSON object)
import { buildMedusaConfig } from "./dev-store/medusa-config"

module.exports = buildMedusaConfig({
  nodeEnv: "development",
  plugin: "source",
  salesTax: {
    connectionId: "00000000-0000-4000-8000-000000000000",
    apiKey: "sandbox-key",
    baseUrl: "http://127.0.0.1:4010",
    origin: { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" },
  },
  secret: "supersecret",
})
