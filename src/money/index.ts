// The plugin's money helpers: the decimal arithmetic of the workspace package
// @medusa-sales-tax/contract (subpath ./money), shared with the sandbox, and ./amount, the reader of
// Medusa's amounts (numbers, strings, BigNumber, raw columns).
export * from "@medusa-sales-tax/contract/money"
export { amountNumber, amountString, isAmount } from "./amount"
