/**
 * Backfill of historical orders, from the command line, through Medusa's exec:
 *
 *   npx medusa exec ./node_modules/medusa-sales-tax/.medusa/server/src/scripts/backfill-sales-tax.js \
 *     --from 2026-01-01 --to 2026-06-30 [--batch-size 200] [--concurrency 8]
 *
 * Files every order placed from `from` to `to` (UTC days, both included) that has no filing
 * record yet: with its real completed date and the tax that was charged, its received returns as
 * refunds (keyed by return id). Resumable: a rerun skips what has a filing record, and the service
 * answers an order or refund it already holds as "already there", so nothing is filed twice.
 * A progress bar (orders/s, ETA) on stderr; a summary line at the end. Exit code 1 when some
 * orders failed (their errors are printed; run it again to retry them), 2 on bad arguments.
 */
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
  let started = false
  const final = await runBackfill(container, {
    ...rangeOf({ from, to }),
    batchSize: batch_size,
    concurrency,
    onProgress: (p) => {
      const payload = { rate: p.ordersPerSecond.toFixed(1), filed: p.filed, skipped: p.skipped, failed: p.failed }
      if (!started) {
        bar.start(p.total, p.processed, payload)
        started = true
      } else bar.update(p.processed, payload)
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
