// The wire contract (packages/contract), imported by its path so that the build compiles it into the
// plugin's one tarball (no second package to install).
export * from "../../packages/contract/src/index"
