/**
 * What each Medusa event does to filing, by event family (./events/): the order's own events
 * (orders.ts), returns, claims and exchanges (changes.ts), refunds without a return as credits
 * (credits.ts) and the sweep (sweep.ts). Every handler first makes sure the order's record exists
 * (so an event that arrives before, or instead of, order.placed still files the order), then
 * records its intent and processes the record under the order's lock.
 */
export * from "./events/common"
export * from "./events/orders"
export * from "./events/changes"
export * from "./events/credits"
export * from "./events/sweep"
