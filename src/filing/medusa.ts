/**
 * Medusa side of filing: the one order reader (`order-reader.ts`), the order as charged
 * (`snapshot.ts`), what a return, a claim or an exchange refunds (`refund-targets.ts`), the app's
 * FilingProcessor (`processor-factory.ts`); the Medusa rows they read are typed in
 * `order-rows.ts`. This file keeps the names its importers use.
 */
export type { RefundItem } from "../modules/sales-tax-filing/types"
export * from "./snapshot"
export * from "./refund-targets"
export { readOrder, readOrders, readOrderParts } from "./order-reader"
export { filingProcessor } from "./processor-factory"
export { getPluginOptions } from "../options"
