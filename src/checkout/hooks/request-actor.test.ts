/** Who may be exempt: the identity rule, and the request scope the hook reads it from. */
import { actorOf, exemptionIdentity, requestScope, runAsActor } from "./request-actor"
import { checkedOutExempt } from "./tax-line-context-handler"

const customer = (id: string) => ({ actorType: "customer", actorId: id })
const admin = { actorType: "user", actorId: "user_1" }

describe("exemptionIdentity", () => {
  it("cart: only the authenticated customer who owns the cart", () => {
    expect(exemptionIdentity("cart", { customer_id: "cus_1" }, customer("cus_1"))).toEqual({
      customerId: "cus_1",
      basis: "authenticated_customer",
    })
    expect(exemptionIdentity("cart", { customer_id: "cus_1" }, null)).toBeNull() // a guest given the e-mail
    expect(exemptionIdentity("cart", { customer_id: "cus_1" }, customer("cus_2"))).toBeNull() // someone else's cart
    expect(exemptionIdentity("cart", { customer_id: "cus_1" }, admin)).toBeNull()
    expect(exemptionIdentity("cart", { customer_id: null }, customer("cus_1"))).toBeNull()
  })
  it("order: an admin on a registered customer's draft order, or on an order checked out exempt", () => {
    const reg = { customer_id: "cus_1", customer: { has_account: true } }
    expect(exemptionIdentity("order", { ...reg, is_draft_order: true }, admin)).toEqual({ customerId: "cus_1", basis: "admin_draft_order" })
    expect(exemptionIdentity("order", { ...reg, checkedOutExempt: true }, { actorType: "api-key", actorId: "apk_1" })).toEqual({
      customerId: "cus_1",
      basis: "admin_order",
    })
    expect(exemptionIdentity("order", reg, admin)).toBeNull() // a guest order of that e-mail
    expect(exemptionIdentity("order", { ...reg, is_draft_order: true, customer: { has_account: false } }, admin)).toBeNull()
    expect(exemptionIdentity("order", { ...reg, is_draft_order: true }, customer("cus_1"))).toBeNull()
  })
})

describe("request scope", () => {
  it("the actor of auth_context, read inside the scope only", async () => {
    expect(actorOf({ actor_type: "customer", actor_id: "cus_1" })).toEqual(customer("cus_1"))
    expect(actorOf({ actor_type: "customer", actor_id: "" })).toBeNull()
    expect(actorOf(undefined)).toBeNull()
    expect(requestScope()).toBeUndefined()
    const seen = await runAsActor(customer("cus_9"), async () => {
      await new Promise((r) => setTimeout(r, 1))
      return requestScope()?.actor()
    })
    expect(seen).toEqual(customer("cus_9"))
    expect(requestScope()).toBeUndefined()
  })
})

describe("checkedOutExempt", () => {
  it("only lines that record a certificate AND the verified basis", () => {
    expect(
      checkedOutExempt({ items: [{ tax_lines: [{ data: { exemption_id: "c1", exemption_basis: "authenticated_customer" } }] }] }),
    ).toBe(true)
    expect(checkedOutExempt({ items: [{ tax_lines: [{ data: { exemption_id: "c1" } }] }] })).toBe(false)
    expect(checkedOutExempt({ items: [{ tax_lines: [{ data: { exemption_id: null } }] }, {}] })).toBe(false)
  })
})
