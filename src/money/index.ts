// The money helpers live in the workspace package @medusa-sales-tax/contract (packages/contract,
// subpath ./money); this re-export keeps the in-tree imports of src/money.
export * from "@medusa-sales-tax/contract/money"
