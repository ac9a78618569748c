import { abbreviateSuffix, postalLines, postalUnit } from "./postal"

describe("postal delivery line (legacy VerifyAddress)", () => {
  it("abbreviates the street suffix, also before a post-directional, and leaves a street named like a suffix", () => {
    expect(abbreviateSuffix("162 East Avenue")).toBe("162 East Ave")
    expect(abbreviateSuffix("  1  Main   Street. ")).toBe("1 Main St")
    expect(abbreviateSuffix("500 Lake Shore Drive North")).toBe("500 Lake Shore Dr North")
    expect(abbreviateSuffix("10 Park Ave")).toBe("10 Park Ave")
    expect(abbreviateSuffix("Broadway")).toBe("Broadway")
    expect(abbreviateSuffix("")).toBe("")
  })

  it("writes a secondary unit as the postal service does", () => {
    expect(postalUnit("Third Floor")).toBe("# 3")
    expect(postalUnit("3rd fl")).toBe("# 3")
    expect(postalUnit("first floor")).toBe("# 1")
    expect(postalUnit("Floor 12")).toBe("Fl 12")
    expect(postalUnit("Suite 100")).toBe("Ste 100")
    expect(postalUnit("apt. 4b")).toBe("Apt 4B")
    expect(postalUnit("# 7")).toBe("# 7")
    expect(postalUnit("Rear")).toBe("Rear")
    expect(postalUnit("PO Box 77")).toBe("PO Box 77")
    expect(postalUnit("Attn: Receiving")).toBeNull()
    expect(postalUnit("Suite")).toBeNull()
    expect(postalUnit("Bottom Floor")).toBeNull()
    expect(postalUnit("")).toBeNull()
  })

  it("folds the unit into Address1 and always answers Address2 null; a PO Box stands in only for a missing street", () => {
    expect(postalLines("162 East Avenue", "Third Floor")).toEqual({ Address1: "162 East Ave # 3", Address2: null })
    expect(postalLines("162 East Avenue", "Attn: Receiving")).toEqual({ Address1: "162 East Ave", Address2: null })
    expect(postalLines("", "PO Box 77")).toEqual({ Address1: "PO Box 77", Address2: null })
    expect(postalLines("400 Broad St", "PO Box 77")).toEqual({ Address1: "400 Broad St", Address2: null })
    expect(postalLines(null, null)).toEqual({ Address1: "", Address2: null })
  })
})
