// The setup checklist of Settings → Sales Tax, from the command line through Medusa's exec:
//   npx medusa exec ./node_modules/medusa-sales-tax/.medusa/server/src/scripts/sales-tax-setup.js [--fix]
// `--fix` applies the unambiguous fixes one after the other (through Medusa's workflows) and prints
// the list again. Exit code 0 when every item is done, 1 when some are left, 2 on bad arguments.
import type { ExecArgs } from "@medusajs/framework/types"
import { formatChecklist, nextFix } from "../setup/checklist"
import type { SetupFixId } from "../setup/types"
import { applySetupFix, readChecklist } from "../setup/medusa"

export default async function salesTaxSetup({ container, args }: ExecArgs) {
  const unknown = (args ?? []).filter((a) => a !== "--fix")
  if (unknown.length) {
    process.stderr.write(`sales-tax setup: unknown argument ${unknown.map((a) => `"${a}"`).join(", ")} (the only one is --fix)\n`)
    process.exitCode = 2
    return
  }
  let items = await readChecklist(container)
  if ((args ?? []).includes("--fix")) {
    const applied: SetupFixId[] = []
    for (let fix = nextFix(items, applied); fix; fix = nextFix(items, applied)) {
      const out = await applySetupFix(container, fix)
      applied.push(fix)
      process.stdout.write(`sales-tax setup: ${out.applied}\n`)
      items = out.items
    }
    if (!applied.length) process.stdout.write("sales-tax setup: nothing to fix without a choice of yours\n")
  }
  process.stdout.write(`${formatChecklist(items)}\n`)
  const left = items.filter((i) => !i.done).length
  process.stdout.write(
    left
      ? `sales-tax setup: ${left} of ${items.length} items left${items.some((i) => i.fix) ? " (run with --fix to apply the fixes)" : ""}\n`
      : "sales-tax setup: the store is ready to quote US sales tax\n",
  )
  if (left) process.exitCode = 1
}
