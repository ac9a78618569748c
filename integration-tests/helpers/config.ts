/**
 * Pointing the test app (medusa-config.ts at the package root) at a sandbox. medusa-config reads
 * SALES_TAX_* from the environment when the runner boots Medusa, so set them BEFORE the runner's
 * beforeAll: call `useSalesTaxSandbox()` at the top level of the spec file, above
 * `medusaIntegrationTestRunner(...)` (jest runs outer beforeAll hooks first).
 */
import type { PluginOptionsInput } from "../../src/options"
import { startTestSandbox, type TestSandbox } from "./sandbox"

/**
 * @medusajs/test-utils turns SSL ON for every database URL whose host is not literally
 * "localhost" (medusa-test-runner-utils/config.js), and neither the machine's PostgreSQL nor the
 * embedded one speaks SSL: with DB_HOST=127.0.0.1 (global-setup's default) Medusa cannot connect.
 * Importing these helpers switches a loopback DB_HOST to "localhost" before the runner is built.
 */
if (process.env.DB_HOST === "127.0.0.1" || process.env.DB_HOST === "::1") process.env.DB_HOST = "localhost"

export type SalesTaxOverrides = Partial<Omit<PluginOptionsInput, "baseUrl" | "apiKey" | "connectionId">>

/** Environment for medusa-config.ts: connection to `sandbox` plus option overrides. */
export function salesTaxEnv(
  sandbox: Pick<TestSandbox, "url" | "apiKey" | "connectionId">,
  overrides: SalesTaxOverrides = {},
): Record<string, string> {
  return {
    SALES_TAX_BASE_URL: sandbox.url,
    SALES_TAX_API_KEY: sandbox.apiKey,
    SALES_TAX_CONNECTION_ID: sandbox.connectionId,
    // the test app trusts certificates made at the service (createExemptShopper makes them there, as
    // staff would in its dashboard); a spec of the review sets externalCertificates: "review"
    SALES_TAX_OPTIONS_JSON: JSON.stringify({ externalCertificates: "exempt", ...overrides }),
  }
}

/**
 * Starts a sandbox in beforeAll (closed in afterAll) and sets the env for medusa-config.ts.
 * Returns a holder whose `.sandbox` is set once beforeAll ran. Also pass `holder.env` as the
 * runner's `env` (it is filled in place).
 */
export function useSalesTaxSandbox(overrides: SalesTaxOverrides = {}): { sandbox: TestSandbox; env: Record<string, string> } {
  const holder = { sandbox: undefined as unknown as TestSandbox, env: {} as Record<string, string> }
  const saved: Record<string, string | undefined> = {}
  beforeAll(async () => {
    holder.sandbox = await startTestSandbox()
    const env = salesTaxEnv(holder.sandbox, overrides)
    Object.assign(holder.env, env)
    for (const [k, v] of Object.entries(env)) {
      saved[k] = process.env[k]
      process.env[k] = v
    }
  })
  afterAll(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
    await holder.sandbox?.close()
  })
  return holder
}
