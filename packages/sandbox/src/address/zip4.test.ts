import { KNOWN_ZIP4, knownZip4, normalizeStreet, zip4For } from "./zip4"

describe("ZIP+4 for VerifyAddress", () => {
  it("normalizes street lines the postal way before matching", () => {
    expect(normalizeStreet("  400 Broad Street ")).toBe("400 BROAD ST")
    expect(normalizeStreet("350 Fifth Avenue.")).toBe("350 5TH AVE")
    expect(normalizeStreet("1600 Pennsylvania Ave., North West")).toBe("1600 PENNSYLVANIA AVE N W")
  })

  it("the published +4 of a known address, however its line is spelled", () => {
    expect(KNOWN_ZIP4["98109|400 BROAD ST"]).toBe("4607")
    expect(knownZip4("98109", "400 broad street")).toBe("4607")
    expect(zip4For("98109", "400 Broad St.")).toBe("4607")
    expect(knownZip4("98101", "1 Main St")).toBeNull()
  })

  it("any other street address in a known ZIP: a stable +4, 0001-9999, the same for the same address", () => {
    const a = zip4For("98101", "1 Main St")
    expect(a).toMatch(/^\d{4}$/)
    expect(a).not.toBe("0000")
    expect(zip4For("98101", "1 MAIN STREET")).toBe(a)
    expect(zip4For("98101", "2 Main St")).not.toBe(a)
  })

  it("no +4 without a house number or for a ZIP the sandbox does not know", () => {
    expect(zip4For("98101", "")).toBeNull()
    expect(zip4For("98101", "Main St")).toBeNull()
    expect(zip4For("00000", "1 Main St")).toBeNull()
  })
})
