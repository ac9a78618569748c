// The plugin's money helpers: the contract package's decimal arithmetic (shared with the sandbox) and
// ./amount, the reader of Medusa's amounts.
export * from "../../packages/contract/src/money"
export { amountNumber, amountString, isAmount } from "./amount"
