// The wire contract lives in the workspace package @medusa-sales-tax/contract (packages/contract).
// Imported by its path, not its name: the plugin's build compiles it into .medusa/server, so the
// plugin's one tarball carries it (no second package to install; pnpm takes no sibling tarball).
export * from "../../packages/contract/src/index"
