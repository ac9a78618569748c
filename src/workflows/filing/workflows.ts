/**
 * The filing workflows, one file each in ./flows (each one idempotent step: keys and ids derive
 * from Medusa ids and the record is reconciled with the service, so no compensation is needed).
 */
export { syncOrderFilingWorkflow } from "./flows/sync-order"
export { paymentCapturedFilingWorkflow } from "./flows/payment-captured"
export { paymentRefundedFilingWorkflow } from "./flows/payment-refunded"
export { returnReceivedFilingWorkflow } from "./flows/return-received"
export { claimCreatedFilingWorkflow } from "./flows/claim-created"
export { exchangeCreatedFilingWorkflow } from "./flows/exchange-created"
export { orderEditedFilingWorkflow } from "./flows/order-edited"
export { fileRefundAsCreditWorkflow } from "./flows/file-credit"
export { retryFilingWorkflow } from "./flows/retry"
export { processDueFilingsWorkflow } from "./flows/process-due"
export { sweepFilingsWorkflow } from "./flows/sweep"
