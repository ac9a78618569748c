/**
 * The filing soak at 100 orders (the 1,000-order run is `npm run soak`; figures in docs/filing.md).
 */
import { runSoak } from "./soak"

jest.setTimeout(180_000)

it("100 orders, every event twice, ~10 % of service calls failing: 0 lost, 0 duplicated, filed = charged", async () => {
  const f = await runSoak({ orders: 100 })
  expect(f.failedAttempts).toBeGreaterThan(0) // the faults did fire
  expect(f.recordsThatFailedOnce).toBeGreaterThan(0) // and some reached the retry job
  expect(f.lost).toBe(0)
  expect(f.duplicated).toBe(0)
  expect(f.amountMismatches).toBe(0)
  expect(f.refundMismatches).toBe(0)
  expect(f.leftFailed).toBe(0)
  expect(f.refundsAtService).toBe(f.refundsExpected)
  expect(f.voidedAtService).toBe(f.voidsExpected)
  expect(f.filedTaxTotal).toBe(f.chargedTaxTotal)
})
