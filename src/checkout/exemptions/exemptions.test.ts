/** pickExemption: the certificate choice shared by the provider (checkout) and filing; the certificate lists' Caching Module store. */
import {
  certificateStoreOn,
  activeCertificates,
  certificateCacheKey,
  invalidateCustomerCertificates,
  mayExempt,
  pickExemption,
  withApproval,
} from "./exemptions"
import type { CertificateStanding } from "../../service/exemptions/certificate-claims"
import { forgetCertificates, type CertificateReviews } from "../../service/exemptions/registry"
import { salesTaxRuntime } from "../../runtime"
import { MemoryStore } from "../quote/result-cache"
import type { SalesTaxClient } from "../../service/client"
import type { CertificateRecord } from "../../../packages/contract/src/index"

const cert = (certificateId: string, states: string[], createdDate: string, disabledAt: string | null = null, approved = true) => ({
  certificateId,
  createdDate,
  disabledAt,
  approved,
  states: states.map((abbreviation) => ({ abbreviation })),
})

describe("pickExemption", () => {
  it("takes the oldest active certificate covering the state", () => {
    const certs = [
      cert("newer", ["MN", "WI"], "2026-05-01T00:00:00Z"),
      cert("older", ["mn"], "2026-01-01T00:00:00Z"),
      cert("other-state", ["CA"], "2025-01-01T00:00:00Z"),
    ]
    expect(pickExemption(certs, "MN")).toBe("older")
    expect(pickExemption(certs, "mn")).toBe("older")
    expect(pickExemption(certs, "WI")).toBe("newer")
    expect(pickExemption(certs, "CA")).toBe("other-state")
  })

  it("only an approved certificate exempts (issue 27): a pending or rejected one, or one read without its review, never", () => {
    const pending = cert("pending", ["MN"], "2025-01-01T00:00:00Z", null, false)
    const approved = cert("approved", ["MN"], "2026-01-01T00:00:00Z")
    expect(pickExemption([pending, approved], "MN")).toBe("approved")
    expect(pickExemption([pending], "MN")).toBeNull()
    const { approved: _, ...unread } = approved
    expect(pickExemption([unread], "MN")).toBeNull()
  })

  it("none for another state, none from a disabled certificate, none from an empty list", () => {
    expect(pickExemption([cert("a", ["MN"], "2026-01-01T00:00:00Z")], "KY")).toBeNull()
    expect(pickExemption([cert("a", ["MN"], "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z")], "MN")).toBeNull()
    expect(pickExemption([], "MN")).toBeNull()
  })
})

describe("certificateStoreOn", () => {
  it("keeps a customer's list in the Caching Module under certificateCacheKey, with the TTL; the cache's errors are misses", async () => {
    const kv = new Map<string, { data: unknown; ttl?: number }>()
    const store = certificateStoreOn({
      get: async ({ key }) => kv.get(key)?.data ?? null,
      set: async ({ key, data, ttl }) => void kv.set(key, { data, ttl }),
    })
    const list = [{ certificateId: "c1" }] as never
    await store.set("cus_1", list, 120)
    expect([...kv.entries()]).toEqual([[certificateCacheKey("cus_1"), { data: list, ttl: 120 }]])
    expect(await store.get("cus_1")).toEqual(list)
    expect(await store.get("cus_2")).toBeUndefined()
    const down = certificateStoreOn({
      get: async () => {
        throw new Error("redis down")
      },
      set: async () => {
        throw new Error("redis down")
      },
    })
    await expect(down.get("cus_1")).resolves.toBeUndefined()
    await expect(down.set("cus_1", list, 120)).resolves.toBeUndefined()
  })
})

const standing = (o: Partial<CertificateStanding> = {}): CertificateStanding => ({
  createdBy: "customer",
  reviewStatus: "approved",
  rejectionReason: null,
  reviewedAt: null,
  usedOrderId: null,
  usedAt: null,
  ...o,
})

describe("mayExempt (issue 27)", () => {
  it("made through this store: approved and not used; made elsewhere: unless a submission is in flight", () => {
    expect(mayExempt(standing(), false)).toBe(true)
    expect(mayExempt(standing({ reviewStatus: "pending" }), false)).toBe(false)
    expect(mayExempt(standing({ reviewStatus: "rejected" }), false)).toBe(false)
    expect(mayExempt(standing({ usedOrderId: "order_1" }), false)).toBe(false)
    expect(mayExempt(standing({ createdBy: "staff" }), true)).toBe(true)
    expect(mayExempt(undefined, false)).toBe(true)
    expect(mayExempt(undefined, true)).toBe(false)
  })
})

describe("certificates the plugin did not make, and single-purchase claims", () => {
  it("no row: an exemption only where the store trusts such certificates, never while a submission is in flight or lost", () => {
    expect(mayExempt(undefined, false, "review")).toBe(false)
    expect(mayExempt(undefined, true, "exempt")).toBe(false)
    expect(mayExempt(undefined, false, "exempt")).toBe(true)
    // a claim that became an order (usedAt) no longer exempts, before its order is filed
    expect(mayExempt(standing({ usedAt: "2026-11-27T08:00:00Z" }), false, "review")).toBe(false)
  })

  it("a certificate claimed at completion by another cart is not offered to this one; the claiming cart keeps it", () => {
    const now = Date.parse("2026-11-27T08:00:00Z")
    const claimed = { ...cert("single", ["MN"], "2026-01-01T00:00:00Z"), claimedCartId: "cart_a", claimedAt: "2026-11-27T07:59:00Z" }
    const other = cert("later", ["MN"], "2026-02-01T00:00:00Z")
    expect(pickExemption([claimed, other], "MN", new Set(), { cartId: "cart_b", now })).toBe("later")
    expect(pickExemption([claimed], "MN", new Set(), { cartId: "cart_b", now })).toBeNull()
    expect(pickExemption([claimed, other], "MN", new Set(), { cartId: "cart_a", now })).toBe("single")
    // a claim held past the hold (its cart never became an order) no longer keeps others out
    expect(pickExemption([claimed], "MN", new Set(), { cartId: "cart_b", now: now + 60 * 60_000 })).toBe("single")
  })
})

describe("the provider's certificate list carries each certificate's review", () => {
  const rec = (certificateId: string): CertificateRecord => ({
    certificateId,
    connectionId: "c".repeat(36),
    customerId: "cus_1",
    customerName: "School",
    address: { line1: "1 A St", city: "Minneapolis", state: "MN", zip: "55415" },
    reason: "EducationalOrganization",
    reasonDescription: null,
    customerBusinessType: "Government",
    customerBusinessDescription: null,
    states: [{ abbreviation: "MN", identificationNumber: "ED-1" }],
    singlePurchase: false,
    createdDate: `2026-01-0${certificateId.length}T00:00:00Z`,
    disabledAt: null,
  })
  const reviews = (byId: Record<string, CertificateStanding>, reserved = false): CertificateReviews => ({
    certificateStandings: async () => ({ byId, reserved }),
  })
  const clientWith = (list: CertificateRecord[]) => {
    const calls: unknown[] = []
    const client = {
      certificates: async function* (q: unknown) {
        calls.push(q)
        yield* list
      },
    } as unknown as SalesTaxClient
    return { client, calls }
  }
  const conn = (client: SalesTaxClient) => ({ connectionId: "conn_default", client, isDefault: true })
  const exempting = (cacheTtlSeconds: number) => ({ cacheTtlSeconds, externalCertificates: "exempt" as const })

  it("a shopper's pending certificate is listed but never picked; approved, it is", async () => {
    const { client } = clientWith([rec("a"), rec("bb")])
    const store = new MemoryStore<CertificateRecord[]>(10)
    const list = await activeCertificates(conn(client), "cus_1", exempting(60), {
      store,
      reviews: reviews({ a: standing({ reviewStatus: "pending" }), bb: standing({ createdBy: "staff" }) }),
    })
    expect(list.map((c) => [c.certificateId, c.approved])).toEqual([
      ["a", false],
      ["bb", true],
    ])
    expect(pickExemption(list, "MN")).toBe("bb")
    // the cached list carries the review: a hit picks the same
    expect(pickExemption((await store.get("cus_1"))!, "MN")).toBe("bb")
  })

  it("no review store registered: all approved; the store failing: none approved and the list not cached", async () => {
    expect((await withApproval("cus_1", [rec("a")], undefined)).list[0]!.approved).toBe(true)
    const down: CertificateReviews = {
      certificateStandings: async () => {
        throw new Error("db down")
      },
    }
    const { client, calls } = clientWith([rec("a")])
    const store = new MemoryStore<CertificateRecord[]>(10)
    const list = await activeCertificates(conn(client), "cus_2", exempting(60), { store, reviews: down })
    expect(list.map((c) => c.approved)).toEqual([false])
    expect(await store.get("cus_2")).toBeUndefined()
    await activeCertificates(conn(client), "cus_2", exempting(60), { store, reviews: down })
    expect(calls).toHaveLength(2)
  })

  it("a certificate made elsewhere (no row) is approved as the options say", async () => {
    const { client } = clientWith([rec("a")])
    const approved = async (options: Parameters<typeof activeCertificates>[2]) =>
      (await activeCertificates(conn(client), "cus_4", options, { reviews: reviews({}) }))[0]!.approved
    expect(await approved({ cacheTtlSeconds: 0, shopperCertificates: "off" })).toBe(true)
    expect(await approved({ cacheTtlSeconds: 0 })).toBe(false)
    expect(await approved({ cacheTtlSeconds: 0, shopperCertificates: "off", externalCertificates: "review" })).toBe(false)
  })

  it("a submission in flight: a certificate without a row is not trusted meanwhile", async () => {
    const { client } = clientWith([rec("a")])
    const list = await activeCertificates(conn(client), "cus_3", exempting(0), { reviews: reviews({}, true) })
    expect(pickExemption(list, "MN")).toBeNull()
  })
})

describe("forgetting a customer's certificates", () => {
  it("is registered for filing as this file loads (filing calls it once a single-purchase certificate is used)", () => {
    expect(forgetCertificates(salesTaxRuntime())).toBe(invalidateCustomerCertificates)
  })
})
