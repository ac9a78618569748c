export * from "./workflows"
export * from "../../filing/decisions"
export {
  FilingProcessor,
  newRecordFor,
  type FilingClient,
  type FilingProcessorDeps,
  type RefundIntent,
  type ProcessOutcome,
} from "../../filing/processor"
export * from "../../filing/handlers"
