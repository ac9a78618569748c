/**
 * `npm run bench:classify`: the unclassified-products suggestions (src/tics/classify: evidence,
 * combination) over the labelled listings of bench/classify-listings.json, against the sandbox's TIC
 * search in process. Per split: top-1 acceptable, top-3 acceptable (the suggestion or one of its
 * two alternatives), and the suggestions at or above the default "accept all" threshold (0.7) with
 * how many of them are acceptable. Prints the figures; exits 0.
 */
import { searchTics } from "../packages/sandbox/src/tic"
import { productEvidence } from "../src/tics/classify/evidence"
import { combineEvidence, type SearchHit } from "../src/tics/classify/combine"
import { HITS } from "../src/tics/classify/combine"
import { LISTINGS, type LabelledListing } from "./classify-listings"

const ACCEPT_ALL = 0.7
const pct = (n: number, d: number) => (d ? `${((n / d) * 100).toFixed(1)} %` : "—")

function score(split: LabelledListing["split"]) {
  const set = LISTINGS.filter((x) => x.split === split)
  let top1 = 0
  let top3 = 0
  let accepted = 0
  let acceptedRight = 0
  const misses: string[] = []
  for (const x of set) {
    const ev = productEvidence({ id: x.title, title: x.title, categories: x.categories, type: x.type ?? null, tags: x.tags ?? [] })
    const hits = new Map<string, SearchHit[]>(ev.map((e) => [e.query, searchTics(e.query, HITS).results]))
    const s = combineEvidence(ev, hits)
    const ok = (tic: number) => x.acceptable.includes(tic)
    const first = !!s && ok(s.tic)
    if (first) top1++
    if (!s || ![s.tic, ...s.alternatives.map((a) => a.tic)].some(ok))
      misses.push(
        `top-3 miss: ${x.title} (${x.categories.map((c) => c.join(" > ")).join("; ")}) → ${s ? `${s.tic} ${s.label}` : "nothing"}`,
      )
    else {
      top3++
      if (!first) misses.push(`top-1 miss: ${x.title} → ${s ? `${s.tic} ${s.label}` : "nothing"}`)
    }
    if (s && s.confidence >= ACCEPT_ALL) {
      accepted++
      if (first) acceptedRight++
      else misses.push(`WRONG at accept-all (${s.confidence}): ${x.title} → ${s.tic} ${s.label}`)
    }
  }
  return { n: set.length, top1, top3, accepted, acceptedRight, misses }
}

for (const split of ["dev", "held_out"] as const) {
  const r = score(split)
  process.stdout.write(
    `${split.padEnd(8)} ${String(r.n).padStart(4)} listings  top-1 ${pct(r.top1, r.n).padStart(7)}  top-3 ${pct(r.top3, r.n).padStart(7)}  accept-all (≥ ${ACCEPT_ALL}) ${r.accepted}, right ${pct(r.acceptedRight, r.accepted)}\n`,
  )
  // the held-out part's misses stay unprinted: rules are tuned on the dev part only
  if (split === "dev") for (const m of r.misses) process.stdout.write(`  ${m}\n`)
}
