// Longest specs first, so that the two jest workers of the integration suite finish together on a
// fresh machine (jest's own order needs timings from an earlier run, which CI never has).
const Sequencer = require("@jest/test-sequencer").default

const FIRST = [
  "cluster.spec",
  "admin-browser.spec",
  "filing.spec",
  "lifecycle.spec",
  "checkout.spec",
  "hostile-input.spec",
  "reconciliation.spec",
  "filing-completion.spec",
]

const rank = (path) => {
  const i = FIRST.findIndex((name) => path.endsWith(`/${name}.ts`))
  return i < 0 ? FIRST.length : i
}

module.exports = class LongestFirst extends Sequencer {
  sort(tests) {
    return [...tests].sort((a, b) => rank(a.path) - rank(b.path) || a.path.localeCompare(b.path))
  }
}
