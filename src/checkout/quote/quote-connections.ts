/** A checkout client and a circuit breaker per connection: one account's outage fails only its own channels' calls fast. */
import type { SalesTaxClient } from "../../service/client"
import { getSalesTaxClient } from "../../service/client-factory"
import { connectionForChannel, optionsOn } from "../../service/connections"
import type { PluginOptions } from "../../options"
import { CircuitBreaker, countsForBreaker } from "./health"
import type { QuoteConnection } from "./quote-types"

export class QuoteConnections {
  /** The default connection's client (the probe; carts of channels without a connection of their own). */
  readonly client: SalesTaxClient
  readonly #clients = new Map<string, SalesTaxClient>()
  /** by sales channel ("" for none): options do not change after boot */
  readonly #connectionOf = new Map<string, QuoteConnection>()
  readonly #breakers = new Map<string, CircuitBreaker>()

  constructor(private readonly options: PluginOptions) {
    this.client = this.clientOn(options)
    this.#clients.set(options.connectionId, this.client)
  }

  /** A checkout-path client on a connection: the whole call, retries included, within timeoutMs. */
  clientOn(o: Pick<PluginOptions, "connectionId" | "apiKey">): SalesTaxClient {
    return getSalesTaxClient(optionsOn(this.options, o), {
      retry: { maxAttempts: 2, baseDelayMs: 50, maxDelayMs: 200, maxElapsedMs: this.options.timeoutMs },
    })
  }

  /** The connection of a cart's sales channel and its client (option `connections`; else the default). */
  connectionFor(salesChannelId: string | null | undefined): QuoteConnection {
    const k = salesChannelId ?? ""
    let got = this.#connectionOf.get(k)
    if (!got) {
      const c = connectionForChannel(this.options, salesChannelId)
      let client = this.#clients.get(c.connectionId)
      if (!client) this.#clients.set(c.connectionId, (client = this.clientOn(c)))
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
