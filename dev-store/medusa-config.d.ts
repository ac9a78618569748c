// Types of medusa-config.js (plain CommonJS, loaded by Medusa's CLI without a TypeScript loader).
import type { ConfigModule } from "@medusajs/framework/types"

export interface DevStoreConfig {
  /** loadEnv's environment when NODE_ENV is unset */
  nodeEnv: string
  /** "installed": `medusa-sales-tax` from the app's node_modules; "source": the repository's src/ is the app */
  plugin: "installed" | "source"
  /** the app's plugin options; SALES_TAX_BASE_URL, _API_KEY, _CONNECTION_ID, _CONNECTIONS_JSON, _OPTIONS_JSON override them */
  salesTax: Record<string, unknown>
  /** JWT and cookie secret unless JWT_SECRET / COOKIE_SECRET are set */
  secret: string
  /** the admin dashboard at /app on (true) or off (false); unset: Medusa's default */
  admin?: boolean
  /** Medusa's Redis event bus, workflow engine, locking and caching modules, queues and keys under `namespace` */
  redis?: { url: string; namespace: string }
  workerMode?: "shared" | "server" | "worker"
}

export function buildMedusaConfig(o: DevStoreConfig): ConfigModule
