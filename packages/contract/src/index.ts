export * from "./common"
export * from "./v3"
export * from "./operations"
export * from "./errors"
