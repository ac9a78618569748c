// Longest specs first (LPT: longest processing time first), so that the two jest workers of the
// integration suite finish together on a fresh machine (jest's own order needs timings from an
// earlier run, which CI never has): the specs that end the suite are short ones, not a 70 s spec
// alone on one worker while the other is idle. The order is each spec's wall time in a CI run
// (scripts/run-tests.mjs prints them, "spec costs"; CI of 2026-11-26), longest first; a spec not
// listed runs first (its cost is unknown: add it here at its place).
const Sequencer = require("@jest/test-sequencer").default

const BY_COST = [
  "filing.spec", // ~250 s (with lifecycle 107 s, filing-edges 66 s and filing-completion 32 s merged in: one boot)
  "checkout.spec", // ~240 s (with shopper-certificates 52 s and typed-addresses ~100 s merged in: one boot)
  "admin-browser.spec", // 152 s
  "cluster.spec", // 142 s
  "tax-inclusive.spec", // ~85 s (with inclusive-lookups merged in: 64 s + 33 s on two boots)
  "connections.spec", // 74 s
  "hostile-input.spec", // ~55 s (the fuzz's random part 1,000 requests, session 9; was 78 s)
  "checkout-block.spec", // ~50 s (with store-overhead merged in: 35 s + 23 s on two boots)
  "money-edges.spec", // 35 s
  "filing-redis.spec", // 32 s
  "setup.spec", // 25 s
  "nexus.spec", // ~22 s (with tics-bulk merged in)
]

const rank = (path) => BY_COST.findIndex((name) => path.endsWith(`/${name}.ts`))

module.exports = class LongestFirst extends Sequencer {
  sort(tests) {
    return [...tests].sort((a, b) => rank(a.path) - rank(b.path) || a.path.localeCompare(b.path))
  }
}
