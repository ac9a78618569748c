/**
 * Issue 26 / 27 after the fact: what filing does with an order's destination (file, skip, or a
 * person must look), the needs_attention record, and the re-quote that files it once (the
 * processor against the in-process sandbox, with the in-memory store and lock).
 */
import fc from "fast-check"
import { startSandbox, type RunningSandbox } from "@medusa-sales-tax/sandbox"
import { US_STATES } from "../../packages/contract/src/index"
import { zipPrefixState } from "../service/address/us-address"
import { SalesTaxClient } from "../service/client"
import { roundCents, sum } from "../../packages/contract/src/money"
import type { FilingSnapshot } from "../modules/sales-tax-filing/types"
import { API_KEY, CONNECTION_ID, DESTINATION, chargedSnapshot, controls } from "../../integration-tests/filing-helpers/kit"
import { MemoryFilingStore, memoryLock } from "./__tests__/memory-store"
import {
  decideDestination,
  deriveState,
  owedSnapshot,
  quotedDestination,
  requoteFigures,
  requoteOfEdit,
  type DestinationFacts,
} from "./decisions"
import { FilingProcessor } from "./processor"
import { newRecordFor } from "./processor-types"
import { missingFacts } from "./events/sweep"
import type { FilingRecordDTO } from "../modules/sales-tax-filing/types"

const facts = (over: Partial<DestinationFacts> = {}): DestinationFacts => ({
  countryCode: "us",
  province: "TX",
  postalCode: "78701",
  currencyCode: "usd",
  quoted: null,
  charged: true,
  ...over,
})

describe("decideDestination", () => {
  it("not the US, or no address: skipped, nothing to file", () => {
    for (const countryCode of ["ca", "", null, undefined]) {
      expect(decideDestination(facts({ countryCode }))).toEqual({ outcome: "skip", reason: "not filed: destination not_us" })
    }
  })

  it("a US address charged at checkout: filed for the address normalized (a typed name or US-XX too)", () => {
    expect(decideDestination(facts())).toEqual({ outcome: "file", state: "TX", zip: "78701", source: "order_address" })
    expect(decideDestination(facts({ province: "us-tx", postalCode: "787011234" }))).toEqual({
      outcome: "file",
      state: "TX",
      zip: "78701-1234",
      source: "order_address",
    })
  })

  it("the destination quoted at checkout (tax lines' data.destination) wins over the address", () => {
    const quoted = quotedDestination([
      { data: { amount: 1 } },
      { data: { destination: { state: "TX", zip: "78702", zip4: "0001", source: "verified" } } },
    ])
    expect(quoted).toEqual({ state: "TX", zip: "78702", zip4: "0001", source: "verified" })
    expect(decideDestination(facts({ province: "Texsa", postalCode: "", quoted }))).toEqual({
      outcome: "file",
      state: "TX",
      zip: "78702-0001",
      source: "verified",
    })
    // malformed entries are passed over
    expect(quotedDestination([{ data: { destination: { state: "Texsa", zip: "78701" } } }, null, { data: null }])).toBeNull()
    expect(quotedDestination([{ data: { destination: { state: "tx", zip: "78701" } } }])).toEqual({
      state: "TX",
      zip: "78701",
      source: "typed",
    })
  })

  it("a US address with no tax charged where it was due: needs attention, with the reason (the state it resolves to and what was typed)", () => {
    expect(decideDestination(facts({ province: "Texas", charged: false }))).toEqual({
      outcome: "attention",
      reason: 'US shipping address (TX 78701, state typed "Texas") but no tax was charged at checkout',
      state: "TX",
      zip: "78701",
    })
    expect(decideDestination(facts({ charged: false }))).toMatchObject({
      outcome: "attention",
      reason: "US shipping address (TX 78701) but no tax was charged at checkout",
    })
  })

  it("a US state or ZIP that does not resolve: needs attention, whatever the tax lines say", () => {
    expect(decideDestination(facts({ province: "Texsa", charged: false }))).toEqual({
      outcome: "attention",
      reason: 'US shipping address whose state does not resolve ("Texsa"): no tax was charged',
      state: null,
      zip: "78701",
    })
    expect(decideDestination(facts({ province: "  " }))).toMatchObject({
      reason: "US shipping address whose state does not resolve (blank): no tax was charged",
    })
    expect(decideDestination(facts({ postalCode: "787" }))).toMatchObject({
      outcome: "attention",
      reason: 'US shipping address whose ZIP does not resolve ("787"): no tax was charged',
      state: "TX",
      zip: null,
    })
  })

  it("the fallback (nothing quoted) is the destination rule: the ZIP decides the state, never the typed state alone", () => {
    // a mistyped state, asked of nobody: a person looks (was filed under OR)
    expect(decideDestination(facts({ province: "OR" }))).toEqual({
      outcome: "attention",
      reason: 'US shipping address whose state ("OR") and ZIP (78701) disagree: not checked at verify-address',
      state: null,
      zip: "78701",
    })
    // the rule's answer (verify-address placed 78701 in Texas): filed under TX
    const verified = {
      address: { line1: "", city: "", state: "TX", zip: "78701" },
      destination: { state: "TX", zip: "78701", source: "verified" as const },
    }
    expect(decideDestination(facts({ province: "OR", ruled: verified }))).toEqual({
      outcome: "file",
      state: "TX",
      zip: "78701",
      source: "order_address",
    })
    expect(decideDestination(facts({ province: "OR", ruled: verified, charged: false }))).toMatchObject({
      outcome: "attention",
      reason: 'US shipping address (TX 78701, state typed "OR") but no tax was charged at checkout',
      state: "TX",
    })
    // a pair the service does not reconcile: a person looks, no state guessed
    const unresolved = { address: null, reason: "unresolved" as const, detail: "verify-address: ZIP code 34001 is in AA, not in TX" }
    expect(decideDestination(facts({ postalCode: "34001", ruled: unresolved }))).toEqual({
      outcome: "attention",
      reason: 'US shipping address whose state ("TX") and ZIP (34001) disagree: verify-address: ZIP code 34001 is in AA, not in TX',
      state: null,
      zip: "34001",
    })
    // typed TX, a Puerto Rico ZIP: untaxed only where the rule placed it there (and nothing was charged)
    expect(decideDestination(facts({ postalCode: "00601", charged: false }))).toMatchObject({ outcome: "attention", state: null })
    const territory = { address: null, reason: "territory" as const }
    expect(decideDestination(facts({ postalCode: "00601", ruled: territory, charged: false }))).toEqual({
      outcome: "skip",
      reason: "not filed: destination territory (ZIP 00601)",
    })
    expect(decideDestination(facts({ postalCode: "00601", ruled: territory }))).toMatchObject({ outcome: "attention" })
  })

  it("the fallback files under the ZIP's state whatever was typed (property)", () => {
    const zips = ["78701", "97201", "10001", "94105", "55415", "02108", "60601", "33101"]
    fc.assert(
      fc.property(fc.constantFrom(...US_STATES, "", "Texsa", "PR"), fc.constantFrom(...zips), fc.boolean(), (typed, zip, verified) => {
        const byZip = zipPrefixState(zip)!
        const ruled = verified
          ? { address: { line1: "", city: "", state: byZip, zip }, destination: { state: byZip, zip, source: "verified" as const } }
          : undefined
        const d = decideDestination(facts({ province: typed, postalCode: zip, ruled }))
        if (d.outcome === "file") expect(d.state).toBe(byZip)
        else expect(d).toMatchObject({ outcome: "attention", state: null })
        // filed whenever the typed state is the ZIP's, or the rule answered
        expect(d.outcome === "file").toBe(verified || typed === byZip)
      }),
    )
  })

  it("a US destination in another currency than USD: needs attention (never filed as dollars), before anything else", () => {
    expect(decideDestination(facts({ currencyCode: "eur", province: "Texsa" }))).toMatchObject({
      outcome: "attention",
      reason: "currency EUR: the plugin files USD only",
    })
    // not the US: skipped whatever its currency
    expect(decideDestination(facts({ countryCode: "de", currencyCode: "eur" })).outcome).toBe("skip")
  })
})

describe("the needs_attention record", () => {
  const snap = { orderId: "order_1", kind: "order", cartId: null, customerId: "guest_x", lines: [] } as unknown as FilingSnapshot

  it("newRecordFor: needs_attention with the reason, its snapshot kept, nothing scheduled", () => {
    expect(newRecordFor("order_1", snap, "placed", new Date(0), "why", true)).toMatchObject({
      state: "needs_attention",
      last_error: "why",
      snapshot: snap,
      next_attempt_at: null,
    })
    expect(newRecordFor("order_1", null, "placed", new Date(0), "why", true)).toMatchObject({ state: "needs_attention", snapshot: null })
    expect(newRecordFor("order_1", null, "placed", new Date(0), "why")).toMatchObject({ state: "skipped", last_error: "why" })
  })

  it("deriveState keeps needs_attention", () => {
    const rec = { state: "needs_attention" as const, filed_at: null, completed_at: null, voided_at: null, snapshot: snap }
    expect(deriveState(rec, [], false)).toBe("needs_attention")
  })
})

describe("the sweep and a record left for a person", () => {
  const none = {
    returns: ["ret_1"],
    claims: [],
    exchanges: [],
    exchangeRefunds: [],
    exchangeOrders: [],
    edits: ["ordch_1"],
    canceled: false,
  }
  const rec = (over: Partial<FilingRecordDTO>) => ({ state: "needs_attention", last_error: "x", refunds: [], ...over }) as FilingRecordDTO

  it("needs_attention waits for the person (only a lost cancellation is brought in); a record skipped before issue 26 for an unresolved state or ZIP is looked at again", () => {
    expect(missingFacts(none, rec({}), [])).toEqual([])
    expect(missingFacts({ ...none, canceled: true }, rec({}), [])).toEqual(["cancellation"])
    expect(missingFacts({ ...none, canceled: true }, rec({ cancel_requested_at: new Date() }), [])).toEqual([])
    expect(missingFacts(none, rec({ state: "skipped", last_error: "not filed: destination no_state" }), [])).toEqual(["destination"])
    expect(missingFacts(none, rec({ state: "skipped", last_error: "not filed: destination no_zip" }), [])).toEqual(["destination"])
    expect(missingFacts(none, rec({ state: "skipped", last_error: "not filed: destination not_us" }), [])).toEqual([])
    expect(missingFacts({ ...none, canceled: true }, rec({ state: "skipped", last_error: "not filed: destination no_state" }), [])).toEqual(
      [],
    )
  })
})

describe("owedSnapshot", () => {
  const base = {
    orderId: "order_1",
    destination: { ...DESTINATION, state: "TX", zip: "78701" },
    lines: [
      { index: 0, itemId: "a", kind: "item", price: 50, quantity: 2, tic: 0, chargedTax: 0, chargedRate: 0, fallback: false },
      { index: 1, itemId: "s", kind: "shipping", price: 10, quantity: 1, tic: 11010, chargedTax: 0, chargedRate: 0, fallback: false },
    ],
  } as unknown as FilingSnapshot
  const q = (itemId: string, amount: number, rate: number) => ({ index: 0, itemId, price: 0, quantity: 1, tic: 0, tax: { amount, rate } })

  it("each line carries the tax the service computed; the snapshot records collected 0 and what is owed", () => {
    const s = owedSnapshot(base, [q("a", 8.25, 0.0825), q("s", 0.825, 0.0825)], new Date("2026-11-26T08:00:00Z"))
    expect(s.lines.map((l) => [l.itemId, l.chargedTax, l.chargedRate])).toEqual([
      ["a", 8.25, 0.0825],
      ["s", 0.83, 0.0825],
    ])
    expect(s.requote).toEqual({ at: "2026-11-26T08:00:00.000Z", collectedTax: 0, owedTax: 9.08, state: "TX", zip: "78701" })
  })

  it("a quote that misses a line files nothing", () => {
    expect(() => owedSnapshot(base, [q("a", 8.25, 0.0825)], new Date())).toThrow("the re-quote has no line s: nothing filed")
  })

  it("an edit after the re-quote: what Medusa collected per line, then the figures of the lines filed (owed = their tax)", () => {
    const medusa = [
      { ...base.lines[0]!, quantity: 3, chargedTax: 0 },
      { ...base.lines[1]!, chargedTax: 0.5 },
    ]
    const edit = requoteOfEdit(medusa)
    expect(edit).toEqual({ quoted: false, collected: { a: 0, s: 0.5 } })
    const rq = { at: "2026-11-26T08:00:00.000Z", collectedTax: 0, owedTax: 9.08, state: "TX", zip: "78701" }
    const owed = owedSnapshot({ ...base, lines: medusa }, [q("a", 12.375, 0.0825), q("s", 0.825, 0.0825)], new Date()).lines
    expect(requoteFigures(rq, owed, edit.collected)).toEqual({ ...rq, owedTax: 13.21, collectedTax: 0.5 })
    // the edit's own order (one line): its own figures; no per-line figures: the order's collected stays
    expect(requoteFigures(rq, [owed[0]!], edit.collected)).toEqual({ ...rq, owedTax: 12.38, collectedTax: 0 })
    expect(requoteFigures(rq, owed, null)).toEqual({ ...rq, owedTax: 13.21, collectedTax: 0 })
  })
})

describe("the re-quote through the processor (sandbox)", () => {
  let sb: RunningSandbox
  let ctl: ReturnType<typeof controls>
  beforeAll(async () => {
    sb = await startSandbox({ apiKey: API_KEY, connectionId: CONNECTION_ID })
    ctl = controls(sb.url)
  })
  afterAll(async () => {
    await sb?.close()
  })
  beforeEach(async () => {
    await ctl.reset()
  })

  const client = () => new SalesTaxClient({ baseUrl: sb.url, apiKey: API_KEY, connectionId: CONNECTION_ID, retry: false })
  const setup = () => {
    const store = new MemoryFilingStore()
    const c = client()
    return { store, c, p: new FilingProcessor({ store, client: c, lock: memoryLock(), maxAttempts: 3 }) }
  }
  const filings = async () => {
    const n = await ctl.counts()
    return (n.cartToOrder ?? 0) + (n.createOrder ?? 0)
  }
  /** An order placed with no tax (the lines at 0): what a needs_attention record holds. */
  const untaxed = async (c: SalesTaxClient, orderId: string) => {
    const s = await chargedSnapshot(c, { orderId, cartId: null }, [
      { price: 50, quantity: 2 },
      { price: 10, quantity: 1, shipping: true },
    ])
    return { ...s, lines: s.lines.map((l) => ({ ...l, chargedTax: 0, chargedRate: 0 })) }
  }

  it("a needs_attention record is never processed; the re-quote files it once at the service's tax for the corrected destination", async () => {
    const { store, c, p } = setup()
    const s = await untaxed(c, "order_NA1")
    await p.fileOrder(newRecordFor(s.orderId, s, "placed", new Date(), "no tax", true))
    await p.process(s.orderId)
    expect((await store.findRecord(s.orderId))?.state).toBe("needs_attention")
    await ctl.resetCounts()
    expect(await filings()).toBe(0)

    const corrected = { ...s, destination: { ...s.destination, state: "TX", zip: "78701" } }
    const [a, b] = await Promise.all([p.requote(s.orderId, async () => corrected), p.requote(s.orderId, async () => corrected)])
    expect([a.requoted, b.requoted].sort()).toEqual([false, true])
    expect(await filings()).toBe(1)
    const at = await c.getOrder(s.orderId)
    const owed = roundCents(sum(at.lineItems.map((l) => l.tax.amount)))
    expect(owed).toBeGreaterThan(0)
    expect([at.destination.state, at.destination.zip]).toEqual(["TX", "78701"])
    const rec = await store.findRecord(s.orderId)
    expect([rec?.state, Number(rec?.filed_tax), rec?.charged_tax, rec?.snapshot?.requote?.owedTax]).toEqual(["completed", owed, 0, owed])
    // later: nothing more
    expect((await p.requote(s.orderId, async () => corrected)).requoted).toBe(false)
    expect(await filings()).toBe(1)
  })

  it("an edit while it waits is kept on the record (shown), even when its destination did not resolve; the re-quote files the edited order and marks it applied", async () => {
    const { store, c, p } = setup()
    const s = await untaxed(c, "order_NA3")
    // a state that did not resolve: no snapshot
    const r = newRecordFor(s.orderId, null, "placed", new Date(), "US shipping address whose state does not resolve", true)
    await p.fileOrder(r)
    await ctl.resetCounts()
    await p.editOrder(r, { id: "ordch_NA3", at: new Date(), lines: s.lines })
    const waiting = await store.findRecord(s.orderId)
    expect([waiting?.state, waiting?.edits?.map((e) => [e.id, e.state]), await filings()]).toEqual([
      "needs_attention",
      [["ordch_NA3", "pending"]],
      0,
    ])
    const corrected = { ...s, destination: { ...s.destination, state: "TX", zip: "78701" } }
    expect((await p.requote(s.orderId, async () => corrected)).requoted).toBe(true)
    const done = await store.findRecord(s.orderId)
    expect([done?.state, done?.edits?.map((e) => [e.id, e.state, e.mode]), await filings()]).toEqual([
      "completed",
      [["ordch_NA3", "applied", "none"]],
      1,
    ])
  })

  it("canceled while it waits: skipped (nothing to file); completion noted schedules nothing", async () => {
    const { store, c, p } = setup()
    const s = await untaxed(c, "order_NA2")
    const r = newRecordFor(s.orderId, s, "captured", new Date(), "no tax", true)
    await p.completeOrder(r, new Date())
    const waiting = await store.findRecord(s.orderId)
    expect([waiting?.state, waiting?.next_attempt_at, !!waiting?.completion_requested_at]).toEqual(["needs_attention", null, true])
    await p.cancelOrder(r, new Date())
    const done = await store.findRecord(s.orderId)
    expect([done?.state, done?.next_attempt_at, done?.last_error]).toEqual([
      "skipped",
      null,
      "canceled before it was filed: nothing to file (was: no tax)",
    ])
    expect((await p.requote(s.orderId, async () => s)).requoted).toBe(false)
    expect(await filings()).toBe(0)
  })
})
