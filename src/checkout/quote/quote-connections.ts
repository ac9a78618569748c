/** A checkout client and a circuit breaker per connection: one account's outage fails only its own channels' calls fast. */
import type { SalesTaxClient } from "../../service/client"
import { getCheckoutClient } from "../../service/client-factory"
import { connectionForChannel, optionsOn } from "../../service/connections"
import type { PluginOptions } from "../../options"
import { CircuitBreaker, countsForBreaker } from "./health"
import type { QuoteConnection } from "./quote-types"

export class QuoteConnections {
  /** The default connection's client (the probe; carts of channels without a connection of their own). */
  readonly client: SalesTaxClient
  /** by sales channel ("" for none): options do not change after boot */
  readonly #connectionOf = new Map<string, QuoteConnection>()
  readonly #breakers = new Map<string, CircuitBreaker>()

  constructor(private readonly options: PluginOptions) {
    this.client = getCheckoutClient(options)
  }

  /** The connection of a cart's sales channel and its client (option `connections`; else the default). */
  connectionFor(salesChannelId: string | null | undefined): QuoteConnection {
    const k = salesChannelId ?? ""
    let got = this.#connectionOf.get(k)
    if (!got) {
      const c = connectionForChannel(this.options, salesChannelId)
      // the checkout client of the connection (one per option set, shared with the hooks): the whole call within timeoutMs
      const client = c.connectionId === this.options.connectionId ? this.client : getCheckoutClient(optionsOn(this.options, c))
      this.#connectionOf.set(k, (got = { connectionId: c.connectionId, client, isDefault: c.isDefault }))
    }
    return got
  }

  breakerFor(connectionId: string): CircuitBreaker {
    let b = this.#breakers.get(connectionId)
    if (!b) {
      // options.circuitBreaker is exactly { failures, halfOpenAfterMs } (zod strips other keys)
      b = new CircuitBreaker({ ...this.options.circuitBreaker, isFailure: countsForBreaker })
      this.#breakers.set(connectionId, b)
    }
    return b
  }
}
