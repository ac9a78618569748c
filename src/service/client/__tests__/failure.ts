import { SalesTaxError } from "../errors"

/** Awaits `p`, asserts that it rejects with a SalesTaxError and returns that error (fails the test when it resolves). */
export async function failure(p: Promise<unknown>): Promise<SalesTaxError> {
  try {
    await p
  } catch (e) {
    expect(e).toBeInstanceOf(SalesTaxError)
    return e as SalesTaxError
  }
  throw new Error("expected the call to fail")
}
