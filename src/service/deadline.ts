/** One deadline per call: the checkout quote's and verify-address's bound. */
export class QuoteTimeoutError extends Error {
  override name = "QuoteTimeoutError"
  constructor(ms: number) {
    super(`no quote within the checkout timeout (${ms} ms, certificate lookup included)`)
  }
}

/** Runs `fn`, rejecting with QuoteTimeoutError after `ms`; the call left behind can still fill a cache. */
export function withDeadline<T>(fn: () => Promise<T>, ms: number): Promise<T> {
  const budget = Math.floor(ms)
  if (budget <= 0) return Promise.reject(new QuoteTimeoutError(0))
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new QuoteTimeoutError(budget)), budget)))
  // fn runs now; a throw becomes the rejection
  return Promise.race([new Promise<T>((resolve) => resolve(fn())), expired]).finally(() => clearTimeout(timer))
}
