import fc from "fast-check"
import * as zipcodes from "zipcodes"
import { US_STATE_NAMES, US_STATES, US_TERRITORIES } from "../../../packages/contract/src/index"
import {
  normalizeUsState,
  normalizeUsZip,
  planDestination,
  US_TERRITORY_NAMES,
  usTerritory,
  ZIP3_RANGES,
  zipPrefixState,
  zipText,
} from "./us-address"

/** The regular-expression readings the fast paths replaced: the fast paths must answer the same. */
const reference = {
  zip(input: string): { zip: string; zip4?: string } | null {
    if (input.length > 30) return null
    const m = /^(\d{5})(?:\s*[-–]\s*|\s+)?(\d{4})?$/.exec(input.trim())
    if (!m || (!m[2] && input.trim().length !== 5)) return null
    return m[2] ? { zip: m[1]!, zip4: m[2] } : { zip: m[1]! }
  },
  prefixState(zip5: string): string | null {
    if (!/^\d{5}$/.test(zip5)) return null
    const p = Number(zip5.slice(0, 3))
    for (const [lo, hi, st] of ZIP3_RANGES) if (p >= lo && p <= hi) return st
    return null
  },
}
/** Strings of ZIP-like characters: digits mostly, a separator, a space, a letter, a full-width digit. */
const zipLike = fc.string({ unit: fc.constantFrom(..."0123456789012345678901234567890123456789 -–\t\na９"), maxLength: 12 })

/** Any casing of each letter, and any run of spaces around and between the words. */
function anyCasingAndSpacing(name: string): fc.Arbitrary<string> {
  const words = name.split(" ")
  const space = fc.constantFrom(" ", "  ", "\t")
  const pad = fc.constantFrom("", " ", "  ", "\t", "\n")
  const word = (w: string) =>
    fc
      .array(fc.boolean(), { minLength: w.length, maxLength: w.length })
      .map((ups) => [...w].map((ch, i) => (ups[i] ? ch.toUpperCase() : ch.toLowerCase())).join(""))
  return fc
    .tuple(pad, fc.tuple(...words.map(word)), fc.array(space, { minLength: words.length, maxLength: words.length }), pad)
    .map(([before, ws, gaps, after]) => before + ws.map((w, i) => (i ? gaps[i]! : "") + w).join("") + after)
}

describe("normalizeUsState", () => {
  it("reads every state's and DC's code in any case, with or without US- and dots", () => {
    for (const code of US_STATES) {
      expect(normalizeUsState(code)).toBe(code)
      expect(normalizeUsState(code.toLowerCase())).toBe(code)
      expect(normalizeUsState(` ${code[0]}${code[1]!.toLowerCase()} `)).toBe(code)
      expect(normalizeUsState(`US-${code}`)).toBe(code)
      expect(normalizeUsState(`us-${code.toLowerCase()}`)).toBe(code)
      expect(normalizeUsState(`${code[0]}.${code[1]}.`)).toBe(code)
    }
  })

  it("reads every state's name in any casing and spacing (property)", () => {
    for (const code of US_STATES) {
      fc.assert(
        fc.property(anyCasingAndSpacing(US_STATE_NAMES[code]), (typed) => normalizeUsState(typed) === code),
        { numRuns: 25 },
      )
    }
  })

  it("reads each input afresh when the one before it differs (the last one read is kept)", () => {
    expect(["NY", "tx", "NY", "NY", "T3X", "Texas", "", "NY"].map(normalizeUsState)).toEqual([
      "NY",
      "TX",
      "NY",
      "NY",
      null,
      "TX",
      null,
      "NY",
    ])
    expect(["Puerto Rico", "pr", "Puerto Rico"].map(usTerritory)).toEqual(["PR", "PR", "PR"])
  })

  it("reads the common abbreviations with dots", () => {
    expect(normalizeUsState("N.Y.")).toBe("NY")
    expect(normalizeUsState("Calif.")).toBe("CA")
    expect(normalizeUsState("Tex.")).toBe("TX")
    expect(normalizeUsState("Mass.")).toBe("MA")
    expect(normalizeUsState("N. Dak.")).toBe("ND")
    expect(normalizeUsState("W. Va.")).toBe("WV")
    expect(normalizeUsState("D.C.")).toBe("DC")
    expect(normalizeUsState("Washington, D.C.")).toBe("DC")
    expect(normalizeUsState("Washington")).toBe("WA")
  })

  it("the filing side's cases (main's us-address.test.ts): a final dot, stray spaces, misspellings", () => {
    expect(
      ["TX", "tx", " us-tx ", "US-TX", "Texas", "TEXAS", "texas.", " new   york ", "District of Columbia"].map(normalizeUsState),
    ).toEqual(["TX", "TX", "TX", "TX", "TX", "TX", "TX", "NY", "DC"])
    expect(["", " ", null, undefined, "Texsa", "PR", "ON", "US-ZZ"].map(normalizeUsState)).toEqual(Array(8).fill(null))
    expect(["", null, undefined, "787", "7870a", "78701-12", "K1A 0B1"].map(normalizeUsZip)).toEqual(Array(7).fill(null))
  })

  it("refuses what is not a state: blanks, unknown names, digits, territories, provinces", () => {
    for (const x of [
      null,
      undefined,
      "",
      "   ",
      "Zzyzx",
      "T3X",
      "78701",
      "Texass",
      "PR",
      "Puerto Rico",
      "ON",
      "Ontario",
      "USA",
      "x".repeat(100),
    ]) {
      expect(normalizeUsState(x)).toBeNull()
    }
  })

  it("names territories apart: the service taxes none of them", () => {
    for (const t of US_TERRITORIES) {
      expect(usTerritory(t)).toBe(t)
      expect(usTerritory(` ${US_TERRITORY_NAMES[t].toUpperCase()} `)).toBe(t)
      expect(normalizeUsState(US_TERRITORY_NAMES[t])).toBeNull()
    }
    expect(usTerritory("Texas")).toBeNull()
  })
})

describe("normalizeUsZip", () => {
  it("reads 5 digits and ZIP+4 with a hyphen, a space or nothing between, surrounding spaces", () => {
    expect(normalizeUsZip("78701")).toEqual({ zip: "78701" })
    expect(normalizeUsZip(" 78701 ")).toEqual({ zip: "78701" })
    expect(normalizeUsZip("78701-1234")).toEqual({ zip: "78701", zip4: "1234" })
    expect(normalizeUsZip("78701 1234")).toEqual({ zip: "78701", zip4: "1234" })
    expect(normalizeUsZip("787011234")).toEqual({ zip: "78701", zip4: "1234" })
    expect(normalizeUsZip(" 78701 - 1234 ")).toEqual({ zip: "78701", zip4: "1234" })
  })

  it("refuses anything else", () => {
    for (const x of [null, undefined, "", "7870", "9410", "787012", "78701-", "78701-123", "7870l", "K1A 0B1", "78701-12345"]) {
      expect(normalizeUsZip(x)).toBeNull()
    }
  })

  it("reads what the regular expression read (property)", () => {
    fc.assert(
      fc.property(zipLike, (x) => expect(normalizeUsZip(x)).toEqual(reference.zip(x))),
      { numRuns: 2000 },
    )
  })

  it("round-trips through the service's spelling (property)", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{5}$/), fc.option(fc.stringMatching(/^\d{4}$/), { nil: undefined }), (zip, zip4) => {
        const z = zip4 ? { zip, zip4 } : { zip }
        expect(normalizeUsZip(zipText(z))).toEqual(z)
        expect(normalizeUsZip(`  ${zip}${zip4 ? ` ${zip4}` : ""} `)).toEqual(z)
      }),
    )
  })
})

describe("zipPrefixState", () => {
  it("agrees with the postal database (the sandbox's) for nearly every US ZIP", () => {
    const codes = (zipcodes as unknown as { codes: Record<string, { country: string; state: string; zip: string }> }).codes
    let checked = 0
    const wrong: string[] = []
    for (const z of Object.values(codes)) {
      if (z.country !== "US" || !/^\d{5}$/.test(z.zip) || ["FM", "MH", "PW"].includes(z.state)) continue
      checked++
      if (zipPrefixState(z.zip) !== z.state) wrong.push(`${z.zip}:${z.state}/${zipPrefixState(z.zip)}`)
    }
    expect(checked).toBeGreaterThan(30_000)
    // ZIP codes across a state line (and two territories in a neighbour's prefix): the service is
    // asked for those when typed with their own state (planDestination)
    expect(wrong.sort()).toEqual([
      "06390:NY/CT",
      "20588:MD/DC",
      "20598:VA/DC",
      "73960:TX/OK",
      "83414:WY/ID",
      "96799:AS/HI",
      "96950:MP/GU",
      "96951:MP/GU",
      "96952:MP/GU",
    ])
  })

  it("the prefix table answers as the scan of the ranges: every prefix, and any ZIP-like text (property)", () => {
    for (let p = 0; p < 1000; p++) {
      const zip = `${String(p).padStart(3, "0")}42`
      expect(zipPrefixState(zip)).toBe(reference.prefixState(zip))
    }
    fc.assert(
      fc.property(zipLike, (x) => expect(zipPrefixState(x)).toBe(reference.prefixState(x))),
      { numRuns: 2000 },
    )
  })

  it("knows the test and demo ZIPs", () => {
    expect(zipPrefixState("78701")).toBe("TX")
    expect(zipPrefixState("10001")).toBe("NY")
    expect(zipPrefixState("94105")).toBe("CA")
    expect(zipPrefixState("20001")).toBe("DC")
    expect(zipPrefixState("00901")).toBe("PR")
    expect(zipPrefixState("09001")).toBe("AE")
    expect(zipPrefixState("00100")).toBeNull()
    expect(zipPrefixState("7870")).toBeNull()
  })
})

describe("planDestination", () => {
  it("quotes a typed state its ZIP agrees with as typed, without asking", () => {
    expect(planDestination(" texas ", "78701-1234")).toEqual({
      kind: "typed",
      destination: { state: "TX", zip: "78701", zip4: "1234", source: "typed" },
    })
  })

  it("asks the service with the ZIP's state when the state is missing or disagrees (the ZIP wins)", () => {
    expect(planDestination("", "78701")).toEqual({ kind: "verify", state: "TX", zip: { zip: "78701" } })
    expect(planDestination("Zzyzx", "78701")).toEqual({ kind: "verify", state: "TX", zip: { zip: "78701" } })
    expect(planDestination("California", "78701")).toEqual({ kind: "verify", state: "TX", zip: { zip: "78701" } })
    // a ZIP whose prefix names no state: the typed state is what is asked about
    expect(planDestination("NY", "00100")).toEqual({ kind: "verify", state: "NY", zip: { zip: "00100" } })
  })

  it("refuses what cannot be resolved, and leaves territories untaxed", () => {
    expect(planDestination("TX", "7870")).toEqual({ kind: "unresolved", field: "postal_code" })
    expect(planDestination("", "00100")).toEqual({ kind: "unresolved", field: "province" })
    // APO/FPO mail: not taxed, not refused
    expect(planDestination("AE", "09001")).toEqual({ kind: "territory", territory: "AE" })
    expect(planDestination("ap", null)).toEqual({ kind: "territory", territory: "AP" })
    expect(planDestination(null, null)).toEqual({ kind: "unresolved", field: "postal_code" })
    expect(planDestination("", "00901")).toEqual({ kind: "territory", territory: "PR" })
    expect(planDestination("Guam", null)).toEqual({ kind: "territory", territory: "GU" })
  })

  it("a typed US state with a territory or APO/FPO ZIP is never untaxed without the service: asked with the ZIP's territory", () => {
    expect(planDestination("TX", "00601")).toEqual({ kind: "verify", state: "PR", zip: { zip: "00601" } })
    expect(planDestination("Texas", "00802")).toEqual({ kind: "verify", state: "VI", zip: { zip: "00802" } })
    expect(planDestination("CA", "96910")).toEqual({ kind: "verify", state: "GU", zip: { zip: "96910" } })
    // AA/AE/AP are no state the service takes: asked with the typed state (the service's answer decides)
    expect(planDestination("TX", "34001")).toEqual({ kind: "verify", state: "TX", zip: { zip: "34001" } })
    expect(planDestination("NY", "09001")).toEqual({ kind: "verify", state: "NY", zip: { zip: "09001" } })
    expect(planDestination("FL", "96201")).toEqual({ kind: "verify", state: "FL", zip: { zip: "96201" } })
    // typed as the territory (or not at all): untaxed as before
    expect(planDestination("PR", "00601")).toEqual({ kind: "territory", territory: "PR" })
    expect(planDestination("AA", "34001")).toEqual({ kind: "territory", territory: "AA" })
  })

  it("the ZIP decides the state (property): any typed spelling, any ZIP of a state, the ZIP's state is quoted or asked", () => {
    const stateZips = Object.values(
      (zipcodes as unknown as { codes: Record<string, { country: string; state: string; zip: string }> }).codes,
    )
      .filter(
        (z) =>
          z.country === "US" &&
          /^\d{5}$/.test(z.zip) &&
          zipPrefixState(z.zip) === z.state &&
          (US_STATES as readonly string[]).includes(z.state),
      )
      .map((z) => z.zip)
    const typed = fc.oneof(
      fc.constantFrom(...US_STATES),
      fc.constantFrom(...Object.values(US_STATE_NAMES)),
      fc.constantFrom(...US_TERRITORIES),
      fc.constantFrom("", "Zzyzx", "US-OR"),
    )
    fc.assert(
      fc.property(typed, fc.constantFrom(...stateZips), (t, zip) => {
        const plan = planDestination(t, zip)
        const state = plan.kind === "typed" ? plan.destination.state : plan.kind === "verify" ? plan.state : null
        expect(state).toBe(zipPrefixState(zip))
        // never quoted as typed where the typed state is not the ZIP's
        if (plan.kind === "typed") expect(normalizeUsState(t)).toBe(zipPrefixState(zip))
      }),
      { numRuns: 2000 },
    )
  })
})
