/** The state a US order is counted in for nexus: the destination rule's ZIP, never a typed state against it. */
import { stateOf } from "./medusa"
import { US_STATES } from "../../packages/contract/src/index"

const known = new Set<string>(US_STATES)

describe("stateOf", () => {
  it("counts an order in its ZIP's state, whatever was typed", () => {
    expect(stateOf("or", "787", known)).toBe("TX")
    expect(stateOf("", "787", known)).toBe("TX")
    expect(stateOf("texas", "787", known)).toBe("TX")
  })

  it("a territory or APO/FPO ZIP counts in no state, even with a typed one (was the typed state)", () => {
    expect(stateOf("tx", "006", known)).toBeNull()
    expect(stateOf("ca", "962", known)).toBeNull()
    expect(stateOf("fl", "340", known)).toBeNull()
    expect(stateOf("ny", "090", known)).toBeNull()
  })

  it("the typed state only where the ZIP names none", () => {
    expect(stateOf("n.y.", "", known)).toBe("NY")
    expect(stateOf("tx", "001", known)).toBe("TX")
    expect(stateOf("", "", known)).toBeNull()
  })
})
