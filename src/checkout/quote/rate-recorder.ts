/** After a live, non-exempt quote: the effective rate per ZIP and TIC, remembered for the outage path (best effort, never awaited). */
import type { Address, CartIn } from "../../../packages/contract/src/index"
import { dec } from "../../../packages/contract/src/money"
import {
  InMemoryRateMemory,
  lineRateToRemember,
  registeredRateMemory,
  WrittenRates,
  zipKey,
  type KnownRate,
  type RateMemory,
} from "../../service/last-known-rates"
import { memoSet, runtimeSlot } from "../../runtime"
import type { Quote, QuoteLogger } from "./quote-types"

/** lineRateToRemember, memoized (the same lines come back across carts). */
const ratePctMemo = runtimeSlot("lineRatePcts", () => new Map<string, string | null>())
function lineRatePct(price: number, quantity: number, amount: number, serviceRate: number): string | null {
  const key = `${price}|${quantity}|${amount}|${serviceRate}`
  const memo = ratePctMemo()
  const got = memo.get(key)
  return got !== undefined ? got : memoSet(memo, key, lineRateToRemember(dec(price).times(quantity), amount, serviceRate))
}

/** The rows to remember of one service cart's answer: one per TIC (the last line wins), less the lines `written` says are unchanged. */
export function ratesToRemember(cart: CartIn, q: Pick<Quote, "lines">, zip: string, at: number, written: WrittenRates): KnownRate[] {
  const rows: KnownRate[] = []
  for (const li of cart.lineItems) {
    const got = q.lines[li.itemId]
    if (!got || (got.tic === null && li.tic === undefined)) continue
    const tic = got.tic ?? li.tic!
    if (written.unchanged(zip, tic, li.price * li.quantity, got.amount, at)) continue
    const rate =
      written.narrowed(zip, tic, li.price * li.quantity, got.amount, got.rate) ?? lineRatePct(li.price, li.quantity, got.amount, got.rate)
    if (rate === null) continue
    rows.push({ zip, tic, rate, quotedAt: new Date(at) })
  }
  return [...new Map(rows.map((r) => [r.tic, r])).values()]
}

export class RateRecorder {
  readonly writtenRates = new WrittenRates()
  #localRates: InMemoryRateMemory | undefined

  constructor(private readonly logger: QuoteLogger) {}

  /** The database-backed rate memory (module salesTax), else an in-process one (said once, as it is made). */
  rateMemory(): RateMemory {
    const m = registeredRateMemory()
    if (m) return m
    if (!this.#localRates) {
      this.logger.warn(
        "sales-tax: the salesTax module is not loaded: last-known rates are kept in process only (add the plugin to `plugins`)",
      )
      this.#localRates = new InMemoryRateMemory()
    }
    return this.#localRates
  }

  /** Records the effective rate per TIC of each cart of a successful, non-exempt quote (not awaited). */
  rememberAll(carts: readonly { cart: CartIn }[], q: Quote, destination: Address): void {
    for (const c of carts) void this.remember(c.cart, q, destination)
  }

  async remember(cart: CartIn, q: Quote, destination: Address): Promise<void> {
    const at = Date.now()
    const byTic = ratesToRemember(cart, q, zipKey(destination.zip), at, this.writtenRates)
    if (!byTic.length) return
    try {
      await this.rateMemory().rememberRates(byTic)
      this.writtenRates.written(byTic, at)
    } catch (e) {
      this.logger.debug?.(`sales-tax: last-known rates not recorded (${(e as Error)?.message ?? e})`)
    }
  }
}
