/** Exemption at checkout: a verified customer's certificate for the destination's state, applied to the quote. */
import type { Address, CertificateRecord } from "../../../packages/contract/src/index"
import { isSalesTaxError, refusesCertificate } from "../../service/client"
import { activeCertificates, invalidateCustomerCertificates, pickExemption } from "../exemptions/exemptions"
import { withDeadline } from "../../service/deadline"
import type { QuoteStore } from "./result-cache"
import type { ProviderStats, Quote, QuoteLogger, QuoteRun } from "./quote-types"

/** Pure of the clock (given `now`): certificates the service refused, not offered again until their time passes. */
export class RefusedCertificates {
  readonly #until = new Map<string, number>()

  /** Refuses `id` for max(ttlSeconds, 60) s from `now`; true when it was not refused before (say so once). */
  refuse(id: string, ttlSeconds: number, now: number = Date.now()): boolean {
    const first = !this.#until.has(id)
    this.#until.set(id, now + Math.max(ttlSeconds, 60) * 1000)
    return first
  }

  /** The certificates still refused at `now` (the others are forgotten). */
  at(now: number = Date.now()): Set<string> {
    for (const [id, until] of this.#until) if (until <= now) this.#until.delete(id)
    return new Set(this.#until.keys())
  }
}

/** Only a verified identity (set by the hook) may carry a certificate: see request-actor.ts. */
export function exemptCustomer(snapshot: { exemption_customer_id?: string | null }): string | null {
  return snapshot.exemption_customer_id?.startsWith("cus_") ? snapshot.exemption_customer_id : null
}

export interface ExemptQuoteDeps {
  options: Parameters<typeof activeCertificates>[2]
  logger: QuoteLogger
  stats: ProviderStats
  certificateStore: QuoteStore<CertificateRecord[]>
  refused: RefusedCertificates
}

/** The quote of a verified customer's cart with their certificate for the destination's state, if any (looked up within the deadline). */
export async function quoteExempt(
  deps: ExemptQuoteDeps,
  destination: Address,
  exemptFor: string,
  run: QuoteRun,
  quoteWith: (exemptionId: string | null) => Promise<Quote>,
  cartId: string | null = null,
): Promise<Quote> {
  const { conn, breaker, deadline } = run
  const certs = await activeCertificates(conn, exemptFor, deps.options, {
    store: deps.certificateStore,
    guard: <T>(fn: () => Promise<T>): Promise<T> => breaker.execute(() => withDeadline(fn, deadline - Date.now())),
  })
  const exemptionId = pickExemption(certs, destination.state, deps.refused.at(), { cartId, now: Date.now() })
  try {
    return await quoteWith(exemptionId)
  } catch (err) {
    if (!exemptionId || !refusesCertificate(err)) throw err
    // the service refused the certificate (disabled, wrong state, unknown): tax the cart, never an outage
    deps.stats.refusedCertificates++
    if (deps.refused.refuse(exemptionId, deps.options.cacheTtlSeconds)) {
      const why = isSalesTaxError(err) ? err.errors.map((e) => e.message).join("; ") : String(err)
      deps.logger.warn(
        `sales-tax: the service refused exemption certificate ${exemptionId} of customer ${exemptFor} (${why}); the cart is taxed without it`,
      )
    }
    // forget the in-process list (a Caching Module entry expires with its TTL; the refused id is skipped meanwhile)
    await invalidateCustomerCertificates(exemptFor)
    return quoteWith(null)
  }
}
