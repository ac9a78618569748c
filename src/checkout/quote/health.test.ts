import { isKeyRefused, SalesTaxError, type SalesTaxErrorCode } from "../../service/client"
import { BrokenCircuitError, countsForBreaker, isOutage } from "./health"

const err = (code: SalesTaxErrorCode, status: number | null) =>
  new SalesTaxError({ operation: "calculateCarts", status, title: "t", retryable: false, code })

describe("isOutage / countsForBreaker / isKeyRefused", () => {
  it("classifies each failure: service faults are outages, the shopper's 4xx and the client's own refusal are not", () => {
    const cases: [unknown, boolean, boolean, boolean][] = [
      // [failure, isOutage, countsForBreaker, isKeyRefused]
      [new BrokenCircuitError(), true, true, false],
      [new Error("boom"), true, true, false],
      [err("validation", null), false, false, false],
      [err("timeout", null), true, true, false],
      [err("network", null), true, true, false],
      [err("response_validation", 200), true, true, false],
      [err("http", 500), true, true, false],
      [err("http", 503), true, true, false],
      [err("http", 429), true, false, false],
      [err("http", 401), true, true, true],
      [err("http", 403), true, true, true],
      [err("http", 422), false, false, false],
      [err("http", 404), false, false, false],
      [err("http", null), true, true, false],
    ]
    for (const [e, outage, breaker, key] of cases) {
      expect([isOutage(e), countsForBreaker(e), isKeyRefused(e)]).toEqual([outage, breaker, key])
    }
  })
})
