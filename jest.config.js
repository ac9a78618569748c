const { loadEnv } = require("@medusajs/framework/utils")
loadEnv("test", process.cwd())

// TEST_TYPE picks the suite: unit (pure functions, sandbox and client black-box tests),
// integration:http (boots Medusa with medusaIntegrationTestRunner against the sandbox).
module.exports = {
  transform: {
    "^.+\\.[jt]sx?$": ["@swc/jest", { jsc: { parser: { syntax: "typescript", decorators: true, tsx: true }, target: "es2022" } }],
  },
  testEnvironment: "node",
  moduleFileExtensions: ["js", "ts", "tsx", "json"],
  // the workspace packages (packages/*) run from their TypeScript sources, no build needed
  moduleNameMapper: {
    "^@medusa-sales-tax/contract$": "<rootDir>/packages/contract/src/index.ts",
    "^@medusa-sales-tax/contract/money$": "<rootDir>/packages/contract/src/money.ts",
    "^@medusa-sales-tax/sandbox$": "<rootDir>/packages/sandbox/src/index.ts",
  },
  // built copies of the browser-test and demo apps must not shadow the sources; the demo's data
  // (compiled seed scripts, logs) is written while jest starts in CI (.ci/run runs the demo beside it)
  modulePathIgnorePatterns: [
    "dist/",
    "<rootDir>/packages/[^/]+/dist/",
    "<rootDir>/.medusa/",
    "<rootDir>/integration-tests/browser/app/",
    "<rootDir>/demo/app/",
    "<rootDir>/demo/.data/",
  ],
  setupFiles: ["./integration-tests/setup.js"],
  globalSetup: "./integration-tests/global-setup.js",
  globalTeardown: "./integration-tests/global-teardown.js",
}

if (process.env.TEST_TYPE === "integration:http") {
  module.exports.testMatch = ["**/integration-tests/http/**/*.spec.[jt]s"]
  module.exports.testSequencer = "./integration-tests/sequencer.js"
  module.exports.setupFilesAfterEnv = ["./integration-tests/spec-cpu.js"]
} else if (process.env.TEST_TYPE === "integration:template") {
  // builds the migrated database the specs' databases are cloned from (integration-tests/db-template.js)
  module.exports.testMatch = ["**/integration-tests/template/build.spec.[jt]s"]
} else if (process.env.TEST_TYPE === "integration:modules") {
  module.exports.testMatch = ["**/src/modules/*/__tests__/**/*.[jt]s"]
} else if (process.env.TEST_TYPE === "unit") {
  module.exports.testMatch = ["**/src/**/*.test.[jt]s?(x)", "**/bench/**/*.test.[jt]s", "**/scripts/**/*.test.[jt]s"]
  // a hang guard, not a speed bound: jest's default 5 s failed a property test on a loaded machine
  module.exports.testTimeout = 15 * 60 * 1000
}
