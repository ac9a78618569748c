export * from "./workflows"
export * from "./decisions"
export {
  FilingProcessor,
  newRecordFor,
  type FilingClient,
  type FilingProcessorDeps,
  type RefundIntent,
  type ProcessOutcome,
} from "./processor"
export * from "./handlers"
