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
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new QuoteTimeoutError(budget)), budget)
    let p: Promise<T>
    try {
      p = fn()
    } catch (e) {
      clearTimeout(timer)
      reject(e)
      return
    }
    p.then(
      (v) => {
        clearTimeout(timer)
        resolve(v)
      },
      (e) => {
        clearTimeout(timer)
        reject(e)
      },
    )
  })
}
