import { SalesTaxError } from "../../service/client/errors"
import { PluginOptionsError } from "../../options"
import { backfillFailureMessage, INTERNAL_FAILURE } from "./jobs"

describe("a failed backfill's message", () => {
  it("never shows a database error's SQL: a plain sentence instead", () => {
    const db = Object.assign(
      new Error(
        `select "o0".* from "order" as "o0" where "o0"."created_at" < '10000-01-01T00:00:00.000Z' - date/time field value out of range`,
      ),
      { code: "22008", sql: 'select "o0".* from "order"' },
    )
    expect(backfillFailureMessage(db, ["sk_test_secret"])).toBe(INTERNAL_FAILURE)
    expect(backfillFailureMessage(new TypeError("Cannot read properties of undefined (reading 'id')"), [])).toBe(INTERNAL_FAILURE)
    expect(backfillFailureMessage("boom", [])).toBe(INTERNAL_FAILURE)
    expect(INTERNAL_FAILURE).not.toMatch(/select|from "|where/i)
  })

  it("shows the service's answer and the options' problem, secrets replaced", () => {
    const svc = new SalesTaxError({
      operation: "createOrder",
      status: 401,
      title: "Unauthorized",
      detail: "key sk_test_secret is not valid",
      retryable: false,
      code: "http",
    })
    expect(backfillFailureMessage(svc, ["sk_test_secret"])).toBe("HTTP 401 - Unauthorized - key [redacted] is not valid")
    expect(backfillFailureMessage(new PluginOptionsError(["apiKey: is required"]), [])).toMatch(/apiKey: is required/)
  })
})
