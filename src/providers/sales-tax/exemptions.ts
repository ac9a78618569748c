import type { SalesTaxClient } from "../../client"
import type { CertificateRecord } from "../../contract"
import { MemoryStore, SingleFlight } from "./result-cache"

/**
 * Active certificates per customer, cached in process with the quote TTL. The admin routes that
 * create or disable certificates call `invalidateCustomerCertificates(customerId)`.
 */
export const certificateCache = new MemoryStore<CertificateRecord[]>(10_000)
const flight = new SingleFlight<CertificateRecord[]>()

export function invalidateCustomerCertificates(customerId?: string): void {
  if (customerId === undefined) certificateCache.clear()
  else certificateCache.delete(customerId)
}

export async function activeCertificates(client: SalesTaxClient, customerId: string, ttlSeconds: number): Promise<CertificateRecord[]> {
  const hit = ttlSeconds > 0 ? certificateCache.getSync(customerId) : undefined
  if (hit) return hit
  return flight.do(customerId, async () => {
    const out: CertificateRecord[] = []
    for await (const c of client.certificates({ customerId, disabled: false })) {
      if (!c.disabledAt) out.push(c)
      if (out.length >= 500) break
    }
    await certificateCache.set(customerId, out, ttlSeconds)
    return out
  })
}

/** Pure: the oldest active certificate (no `disabledAt`) whose states include `state`, or null. */
export function pickExemption(certs: readonly Pick<CertificateRecord, "certificateId" | "states" | "createdDate" | "disabledAt">[], state: string): string | null {
  const st = state.toUpperCase()
  const match = certs
    .filter((c) => !c.disabledAt && c.states.some((s) => s.abbreviation.toUpperCase() === st))
    .sort((a, b) => (a.createdDate < b.createdDate ? -1 : a.createdDate > b.createdDate ? 1 : 0))[0]
  return match?.certificateId ?? null
}

/**
 * The id of the customer's active certificate covering `state`, or null. Used by the provider at
 * checkout AND by filing (the re-quote and the filed order carry the same certificate).
 */
export async function findExemption(client: SalesTaxClient, customerId: string, state: string, ttlSeconds: number): Promise<string | null> {
  return pickExemption(await activeCertificates(client, customerId, ttlSeconds), state)
}
