/** The cart-change lock (holdLock) against Medusa's own in-memory locking provider. */
import { InMemoryLockingProvider } from "@medusajs/locking/dist/providers/in-memory"
import { CART_CHANGE_LOCK_PREFIX, holdLock } from "./tax-resync"
import type { LockingLike } from "../../medusa/cart-restore"

const deferred = () => {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}
const tick = () => new Promise((r) => setImmediate(r))

describe("holdLock: a cart's store changes one after the other, each from before its read until it answered", () => {
  it("the second change takes the lock (and so reads the cart) only after the first answered; other carts do not wait", async () => {
    const locking = new InMemoryLockingProvider() as unknown as LockingLike
    const key = `${CART_CHANGE_LOCK_PREFIX}cart_1`
    const order: string[] = []
    const firstAnswered = deferred()
    const secondAnswered = deferred()
    expect(await holdLock(locking, key, firstAnswered.promise, { timeout: 5, expire: 60 })).toBe(true)
    order.push("first read")
    const second = holdLock(locking, key, secondAnswered.promise, { timeout: 5, expire: 60 }).then((held) => {
      order.push(`second read (held: ${held})`)
    })
    // another cart's change is not held up
    expect(await holdLock(locking, `${CART_CHANGE_LOCK_PREFIX}cart_2`, new Promise(() => {}), { timeout: 5, expire: 60 })).toBe(true)
    for (let i = 0; i < 5; i++) await tick()
    expect(order).toEqual(["first read"])
    order.push("first restored and answered")
    firstAnswered.resolve()
    await second
    expect(order).toEqual(["first read", "first restored and answered", "second read (held: true)"])
    secondAnswered.resolve()
  })

  it("a lock that cannot be taken within the timeout: false, and the caller goes on", async () => {
    const locking = new InMemoryLockingProvider() as unknown as LockingLike
    const never = new Promise(() => {})
    expect(await holdLock(locking, "k", never, { timeout: 5, expire: 60 })).toBe(true)
    expect(await holdLock(locking, "k", never, { timeout: 1, expire: 60 })).toBe(false)
  })
})
