// Longest specs first (LPT: longest processing time first), so that the two jest workers of the
// integration suite finish together on a fresh machine (jest's own order needs timings from an
// earlier run, which CI never has): the specs that end the suite are short ones, not a 70 s spec
// alone on one worker while the other is idle. The order is each spec's wall time in a whole run of
// the suite (scripts/run-tests.mjs prints them, "spec costs"; 2026-11-28 00:21–00:29, load average
// 15 falling to 6, the restores without a DROP DATABASE), longest first; a spec not listed runs first
// (its cost is unknown: add it here at its place).
const Sequencer = require("@jest/test-sequencer").default

const BY_COST = [
  "filing.spec", // 253 s (lifecycle, filing-edges and filing-completion merged in: one boot)
  "checkout.spec", // 220 s (shopper-certificates and typed-addresses merged in: one boot)
  // 57 s with the dashboard's build copied from the machine's cache, as here; CI's fresh machine builds
  // it (about 40 CPU-s more: 76 CPU-s and 311 s in the run before, at load average 15–20)
  "admin-browser.spec",
  "cluster.spec", // 73 s
  "checkout-block.spec", // 47 s (store-overhead merged in)
  "tax-inclusive.spec", // 45 s (inclusive-lookups merged in)
  "connections.spec", // 42 s
  "setup.spec", // 41 s
  "filing-redis.spec", // 35 s
  "hostile-input.spec", // 33 s (the fuzz's random part 1,000 requests)
  "money-edges.spec", // 20 s
  "nexus.spec", // 18 s (tics-bulk merged in)
]

const rank = (path) => BY_COST.findIndex((name) => path.endsWith(`/${name}.ts`))

module.exports = class LongestFirst extends Sequencer {
  sort(tests) {
    return [...tests].sort((a, b) => rank(a.path) - rank(b.path) || a.path.localeCompare(b.path))
  }
}
