import { parseClassifyArgs } from "./args"

describe("parseClassifyArgs", () => {
  it("lists without arguments; applies with --apply and a confidence from 0.5 to 1 (space or =)", () => {
    expect(parseClassifyArgs([])).toEqual({ apply: false })
    expect(parseClassifyArgs(["--apply", "--min-confidence", "0.7"])).toEqual({ apply: true, minConfidence: 0.7 })
    expect(parseClassifyArgs(["--min-confidence=0.8", "--apply"])).toEqual({ apply: true, minConfidence: 0.8 })
  })
  it("refuses what would be unclear or would accept low-confidence suggestions", () => {
    expect(parseClassifyArgs(["--apply"])).toEqual({ error: "--apply needs --min-confidence <0.5-1>: which suggestions to accept" })
    expect(parseClassifyArgs(["--apply", "--min-confidence", "0.3"])).toEqual({
      error: '--min-confidence must be a number from 0.5 to 1 (got "0.3")',
    })
    expect(parseClassifyArgs(["--apply", "--min-confidence"])).toEqual({
      error: "--min-confidence must be a number from 0.5 to 1 (got nothing)",
    })
    expect(parseClassifyArgs(["--min-confidence", "0.9"])).toEqual({
      error: "--min-confidence without --apply: add --apply to set the TICs",
    })
    expect(parseClassifyArgs(["--aply"])).toEqual({
      error: 'unknown argument "--aply" (the arguments are --apply and --min-confidence <0.5-1>)',
    })
  })
})
