// The wire contract lives in the workspace package @medusa-sales-tax/contract (packages/contract);
// this re-export keeps the plugin's `medusa-sales-tax/contract` export and the in-tree imports.
export * from "@medusa-sales-tax/contract"
