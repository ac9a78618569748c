/**
 * The filing workflows, one file each in ./flows, each one step that writes the filing records and
 * the service. None has a compensation, and each file says why for what its step writes. In
 * short: Medusa runs a step's compensation only when a later step of the same workflow fails, and
 * each workflow is its one step; a failed service call is not thrown but kept on the filing record
 * (state failed, next_attempt_at) for the retry job; every write is keyed by a Medusa id (order,
 * return, claim, exchange, edit, refund id), so a rerun completes what a crash left half done; and
 * the service has no reversal of a refund, while a void would un-file a sale Medusa still holds.
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
