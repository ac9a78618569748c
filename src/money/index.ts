// The money helpers live in the workspace package @medusa-sales-tax/contract (packages/contract,
// subpath ./money); this re-export keeps the in-tree imports of src/money. ./amount reads Medusa's
// amounts (numbers, strings, BigNumber, raw columns) for the plugin.
export * from "@medusa-sales-tax/contract/money"
export { amountNumber, amountString, isAmount } from "./amount"
