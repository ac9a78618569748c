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

/** The id of the customer's active certificate covering `state`, or null. */
export async function findExemption(client: SalesTaxClient, customerId: string, state: string, ttlSeconds: number): Promise<string | null> {
  const certs = await activeCertificates(client, customerId, ttlSeconds)
  const match = certs
    .filter((c) => c.states.some((s) => s.abbreviation.toUpperCase() === state))
    .sort((a, b) => (a.createdDate < b.createdDate ? -1 : 1))[0]
  return match?.certificateId ?? null
}
