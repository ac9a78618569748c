import { normalizeUsState, normalizeUsZip } from "./us-address"

describe("normalizeUsState", () => {
  it("codes in any case, US-XX, names (with stray spaces and a final dot) resolve; anything else is null", () => {
    expect(
      ["TX", "tx", " us-tx ", "US-TX", "Texas", "TEXAS", "texas.", " new   york ", "District of Columbia"].map(normalizeUsState),
    ).toEqual(["TX", "TX", "TX", "TX", "TX", "TX", "TX", "NY", "DC"])
    expect(["", " ", null, undefined, "Texsa", "PR", "ON", "US-ZZ"].map(normalizeUsState)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ])
  })
})

describe("normalizeUsZip", () => {
  it("5 digits, ZIP+4 with a dash, a space or none; anything else is null", () => {
    expect(normalizeUsZip(" 78701 ")).toEqual({ zip: "78701" })
    expect(normalizeUsZip("78701-1234")).toEqual({ zip: "78701", zip4: "1234" })
    expect(normalizeUsZip("787011234")).toEqual({ zip: "78701", zip4: "1234" })
    expect(normalizeUsZip("78701 1234")).toEqual({ zip: "78701", zip4: "1234" })
    expect(["", null, undefined, "787", "7870a", "78701-12", "K1A 0B1"].map(normalizeUsZip)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ])
  })
})
