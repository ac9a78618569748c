/**
 * What the provider knows of a destination's rates (each live, non-exempt quote's, per connection, ZIP and TIC; else
 * the rate memory), so a tax-inclusive cart state costs ONE call. A hint only picks the first net to quote.
 */
import type BigNumber from "bignumber.js"
import { LRUCache } from "lru-cache"
import type { CartIn } from "../../../packages/contract/src/index"
import { dec } from "../../../packages/contract/src/money"
import { LAST_KNOWN_MAX_AGE_MS, zipKey, type RateMemory } from "../../service/last-known-rates"
import { hintedNet, narrowKnown, type InclusiveLine } from "./inclusive"

type Known = ReturnType<typeof narrowKnown>
/** A quoted line as the hints read it. */
type QuotedLine = { amount: number; rate: number; net?: string }
type Lines = Readonly<Record<string, QuotedLine | undefined>>
type Answer = { carts: readonly { cart: CartIn }[]; lines: Lines; destinationZip: string; connectionId: string }
/** An answer not yet folded into what is known (folded when a tax-inclusive cart asks: start). */
type Seen = { net: string | undefined; price: number; quantity: number; amount: number; rate: number }
/** Answers seen per ZIP and TIC since it was last folded */
const PENDING = 16

const key = (connectionId: string, zip: string, tic: number) => `${connectionId}|${zip}|${tic}`

export class InclusiveHints {
  /** per connection, ZIP and TIC: the rate to predict with and the interval the answers allow */
  readonly #rates = new LRUCache<string, { known: Known | undefined; pending: Seen[] }>({ max: 10_000, ttl: 3_600_000 })
  readonly stats = { hinted: 0, fromMemory: 0, unhinted: 0 }
  /** answers recorded and not yet filed by ZIP and TIC */
  #answers: Answer[] = []

  /** Records a live, non-exempt quote's answer: filed after the shopper's answer, narrowed only when an inclusive cart asks. */
  record(carts: readonly { cart: CartIn }[], lines: Lines, destinationZip: string, connectionId: string): void {
    // carts and lines never change: filed in an immediate, by start() if it comes first, or at once past 1,000 answers
    const n = this.#answers.push({ carts, lines, destinationZip, connectionId })
    if (n === 1) setImmediate(() => this.#file())
    else if (n > 1000) this.#file()
  }

  /** Files the recorded answers by connection, ZIP and TIC (a pending answer per line). */
  #file(): void {
    const answers = this.#answers
    this.#answers = []
    for (const { carts, lines, destinationZip, connectionId } of answers) {
      const zip = zipKey(destinationZip)
      for (const { cart } of carts) {
        for (const li of cart.lineItems) {
          const got = lines[li.itemId]
          if (!got || li.tic === undefined || li.tic === null) continue
          const k = key(connectionId, zip, li.tic)
          const e = this.#rates.get(k) ?? { known: undefined, pending: [] }
          if (e.pending.push({ net: got.net, price: li.price, quantity: li.quantity, amount: got.amount, rate: got.rate }) > PENDING)
            e.pending.shift()
          this.#rates.set(k, e) // the hour runs from the latest answer
        }
      }
    }
  }

  /** What is known of a key, its pending answers folded in first. */
  #known(k: string): Known | undefined {
    const e = this.#rates.get(k)
    if (!e) return undefined
    for (const s of e.pending) {
      // the net the service was asked for this line (a tax-inclusive line's own net)
      const net = s.net !== undefined ? dec(s.net) : dec(s.price).times(s.quantity)
      e.known = narrowKnown(e.known, net, { amount: s.amount, rate: s.rate })
    }
    e.pending = []
    return e.known
  }

  /** The first net of each inclusive line whose ZIP and TIC has a known rate (in process, else one rate-memory read). */
  async start(
    carts: readonly { cart: CartIn }[],
    inclusive: readonly InclusiveLine[],
    destinationZip: string,
    connectionId: string,
    memory: () => RateMemory,
  ): Promise<Map<string, BigNumber>> {
    if (this.#answers.length) this.#file()
    const zip = zipKey(destinationZip)
    const ticOf = new Map<string, number>()
    for (const { cart } of carts) for (const li of cart.lineItems) if (li.tic !== undefined && li.tic !== null) ticOf.set(li.itemId, li.tic)
    const rates = new Map<number, Known>()
    const missing = new Set<number>()
    for (const l of inclusive) {
      const tic = ticOf.get(l.itemId)
      if (tic === undefined) continue
      const r = this.#known(key(connectionId, zip, tic))
      if (r !== undefined) rates.set(tic, r)
      else missing.add(tic)
    }
    if (missing.size) {
      try {
        const since = new Date(Date.now() - LAST_KNOWN_MAX_AGE_MS)
        for (const k of await memory().knownRates(zip, [...missing], since)) {
          // the memory keeps percentages; the newest row per TIC wins
          if (!rates.has(k.tic)) {
            const r = dec(k.rate).div(100)
            rates.set(k.tic, { rate: r, lo: r, hi: r })
            this.stats.fromMemory++
          }
        }
      } catch {
        // no memory (module not registered, database away): the first quote is at the shown price
      }
    }
    const start = new Map<string, BigNumber>()
    for (const l of inclusive) {
      const tic = ticOf.get(l.itemId)
      const r = tic === undefined ? undefined : rates.get(tic)
      if (r === undefined) {
        this.stats.unhinted++
        continue
      }
      this.stats.hinted++
      start.set(l.itemId, hintedNet(l.gross, r.rate, r))
    }
    return start
  }

  clear(): void {
    this.#answers = []
    this.#rates.clear()
  }
}
