// Creation calls repeated safely: "orderId exists" recognised, a differing existing order a conflict.
import type { ErrorDetail, OperationId } from "../../../packages/contract/src/index"
import { SalesTaxError } from "./errors"

/** The service's answer to a duplicate orderId on creation: a 400 that names the orderId. */
export function isDuplicateOrder(err: unknown): err is SalesTaxError {
  if (!(err instanceof SalesTaxError) || err.code !== "http" || err.status !== 400) return false
  if (err.errors.some((e) => /(^|\.)orderId$/.test(e.location))) return true
  const text = `${err.title} ${err.detail ?? ""}`
  return /orderId/i.test(text) && /(exist|duplicate|already|in use)/i.test(text)
}

export function conflict(operation: OperationId, orderId: string, errors: ErrorDetail[], redact: <T>(v: T) => T): SalesTaxError {
  return new SalesTaxError({
    operation,
    status: 409,
    code: "http",
    retryable: false,
    title: "Conflict",
    detail: redact(`an order ${JSON.stringify(orderId)} already exists at the service and differs from this request`),
    errors: redact(errors),
  })
}
