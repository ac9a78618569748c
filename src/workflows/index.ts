// Package export "medusa-sales-tax/workflows".
export * from "./filing"
