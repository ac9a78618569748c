// The plugin's money helpers: the decimal arithmetic of the workspace package
// @medusa-sales-tax/contract (its money module, compiled into the plugin as service/contract.ts
// says), shared with the sandbox, and ./amount, the reader of Medusa's amounts (numbers, strings,
// BigNumber, raw columns).
export * from "../../packages/contract/src/money"
export { amountNumber, amountString, isAmount } from "./amount"
