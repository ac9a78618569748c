// Backfill of past orders from the command line, through Medusa's exec:
//   npx medusa exec …/src/scripts/backfill-sales-tax.js --from YYYY-MM-DD --to YYYY-MM-DD [--batch-size N] [--concurrency N]
// Files every order placed in the range (UTC days, both included) without a filing record, as
// charged, with its returns as refunds; a rerun skips what is filed. Progress on stderr. Exit code
// 1 when some orders failed (run it again to retry them), 2 on bad arguments.
import type { ExecArgs } from "@medusajs/framework/types"
import cliProgress from "cli-progress"
import { runBackfill } from "../filing/backfill/medusa"
import { parseBackfillArgs, rangeOf } from "../filing/backfill/range"

export default async function backfillSalesTax({ container, args }: ExecArgs) {
  const parsed = parseBackfillArgs(args ?? [])
  if (!parsed.ok) {
    for (const e of parsed.errors) process.stderr.write(`${e}\n`)
    process.exitCode = 2
    return
  }
  const { from, to, batch_size, concurrency } = parsed.value
  const bar = new cliProgress.SingleBar(
    {
      format:
        "sales-tax backfill |{bar}| {value}/{total} orders | {rate} orders/s | ETA {eta_formatted} | filed {filed}, skipped {skipped}, failed {failed}",
      hideCursor: true,
      etaBuffer: 50,
      noTTYOutput: true,
      notTTYSchedule: 5000,
      stream: process.stderr,
    },
    cliProgress.Presets.shades_classic,
  )
  const final = await runBackfill(container, {
    ...rangeOf({ from, to }),
    batchSize: batch_size,
    concurrency,
    onProgress: (p) => {
      const payload = { rate: p.ordersPerSecond.toFixed(1), filed: p.filed, skipped: p.skipped, failed: p.failed }
      if (bar.isActive) bar.update(p.processed, payload)
      else bar.start(p.total, p.processed, payload)
    },
  })
  bar.stop()
  const seconds = (new Date(final.finishedAt ?? Date.now()).getTime() - new Date(final.startedAt).getTime()) / 1000
  process.stdout.write(
    `sales-tax backfill ${from}..${to}: ${final.total} orders; filed ${final.filed} (${final.alreadyAtService} already at the service), ` +
      `${final.refunds} refunds, skipped ${final.skipped} (already filed or nothing to file), failed ${final.failed}; ` +
      `${seconds.toFixed(1)} s, ${final.ordersPerSecond} orders/s\n`,
  )
  for (const e of final.errors) process.stdout.write(`  failed ${e.orderId}: ${e.error}\n`)
  if (final.failed) process.exitCode = 1
}
