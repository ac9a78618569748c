// Unclassified products from the command line, through Medusa's exec (as Settings → Sales Tax → TICs):
//   npx medusa exec …/src/scripts/classify-products.js [--apply --min-confidence 0.7]
// Each product on the default TIC with its suggested TIC; `--apply` sets every suggestion at or above
// the confidence through the bulk TIC path. Exit code 1 when the apply failed or another import ran, 2 on bad arguments.
import type { ExecArgs } from "@medusajs/framework/types"
import { getPluginOptions } from "../options"
import { parseClassifyArgs } from "../tics/classify/args"
import { acceptedSuggestions, suggestFor, unclassifiedIds } from "../tics/classify/medusa"
import { currentTicImport, startTicImport } from "../tics/medusa"

const out = (line: string) => void process.stdout.write(`${line}\n`)
const fail = (message: string, code: number) => {
  process.stderr.write(`sales-tax classify: ${message}\n`)
  process.exitCode = code
}

export default async function classifyProducts({ container, args }: ExecArgs) {
  const parsed = parseClassifyArgs(args ?? [])
  if ("error" in parsed) return fail(parsed.error, 2)
  const options = getPluginOptions(container)
  if (!parsed.apply) {
    const { ids, truncated } = await unclassifiedIds(container, options.defaultTic)
    const { products, searches } = await suggestFor(container, options, ids)
    for (const p of products) {
      const s = p.suggestion
      out(
        s
          ? `${p.id}  ${p.title ?? ""}  →  ${s.tic} ${s.label}  (confidence ${s.confidence.toFixed(2)}; or ${s.alternatives.map((a) => `${a.tic} ${a.label}`).join(", ") || "nothing else"})`
          : `${p.id}  ${p.title ?? ""}  →  no suggestion: ${p.note}`,
      )
    }
    out(
      `sales-tax classify: ${ids.length}${truncated ? "+" : ""} product(s) on the default TIC ${options.defaultTic}; searches: ${searches.searched} made, ${searches.cached} cached, ${searches.notSearched} past the ceiling of ${searches.ceiling}, ${searches.failed} failed`,
    )
    return
  }
  const accepted = await acceptedSuggestions(container, options, parsed.minConfidence)
  const job = await startTicImport(container, accepted.changes)
  if (!job) return fail("another TIC import is running; try again when it is done", 1)
  let now = currentTicImport()
  while (now?.id === job.id && now.status === "running") {
    await new Promise((r) => setTimeout(r, 250))
    now = currentTicImport()
  }
  if (now?.status !== "done") return fail(now?.error ?? "the import did not finish", 1)
  out(
    `sales-tax classify: ${accepted.changes.length} TIC(s) set (confidence ≥ ${parsed.minConfidence}); left: ${accepted.below} below it, ${accepted.without} without a suggestion`,
  )
}
