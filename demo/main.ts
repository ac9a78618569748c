/**
 * `npm run demo`: the plugin's main job in one command (docs/demo.md).
 *   sandbox of the Sales Tax Service (in process) + PostgreSQL (DATABASE_URL or embedded)
 *   -> a Medusa store with the plugin (demo/app: migrations, seed) -> storefront checkouts into
 *   several states -> per order: tax charged (Medusa) vs tax filed (the service)
 *   -> a partial return (refund), a cancellation (void), an exempt checkout -> summary.
 * Exit code 0 only when every check holds. `--serve` keeps the store and its admin running.
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import { parseArgs } from "node:util"
import { SalesTaxClient } from "../src/service/client"
import { dec, roundCents, sum } from "../packages/contract/src/money"
import { startSandbox } from "@medusa-sales-tax/sandbox"
import type { DemoSeed } from "./app/seed"
import { startDatabase } from "./lib/database"
import { APP_DIR, DATA_DIR, LOG_DIR, REPO_ROOT, buildAdmin, migrate, seed as seedStore, startStore } from "./lib/medusa"
import { INSTALLED_PLUGIN, installPlugin } from "./lib/plugin-install"
import { assertPortFree, freePort, onShutdown, shutdown } from "./lib/processes"
import { printOrderTable, printReconciliation, printSummary, type Check } from "./lib/report"
import {
  CANCEL_ORDER,
  CLAIM_ORDER,
  EDIT_ORDER,
  EXEMPT_STATE,
  PLAN,
  RETURN_ORDER,
  RETURN_PRODUCT,
  cancelOrder,
  chargedOrder,
  checkout,
  compare,
  activity,
  certificateCreators,
  createExemptCustomer,
  editOrderAdd,
  filedOrder,
  fulfilAll,
  makeCtx,
  monthReconciliation,
  replaceClaim,
  returnItems,
  waitForFiling,
  type Comparison,
  type FilingView,
  type PlacedOrder,
} from "./lib/scenario"
import { childOrderId } from "../src/filing/decisions-refunds"
import { WHOLESALE_CONNECTION, countsByConnection, wholesaleCheckout } from "./lib/channels"
import { WHOLESALE_CHANNEL_ID } from "./app/seed"
import { DemoError, bold, dim, errorBlock, green, info, line, mute, red, step } from "./lib/ui"

const USAGE = `Usage: npm run demo [-- options]

  --serve              keep the store, its admin and the sandbox running after the demo (Ctrl-C stops)
  --port <n>           Medusa's port (default: a free port; 9000 with --serve)
  --sandbox-port <n>   the sandbox's port (default: a free port)
  -h, --help           this text

Environment:
  DATABASE_URL         a PostgreSQL server to use (the demo creates a fresh database
                       "medusa_sales_tax_demo" on it); unset = an embedded PostgreSQL
  DEMO_TIMEOUT_SECONDS bound of the whole run without --serve (default 600)`

/** The sandbox's default connection (docs/sandbox.md); the store is configured with it. */
const SANDBOX_API_KEY = "sandbox-key"
const SANDBOX_CONNECTION_ID = "00000000-0000-4000-8000-000000000000"
const SHIPPING_TIC = 11010

interface Flags {
  serve: boolean
  port?: number
  sandboxPort?: number
}

function parseFlags(argv: string[]): Flags | "help" {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      serve: { type: "boolean", default: false },
      port: { type: "string" },
      "sandbox-port": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  })
  if (values.help) return "help"
  const port = (name: string, v: string | undefined): number | undefined => {
    if (v === undefined) return undefined
    const n = Number(v)
    if (!Number.isInteger(n) || n < 1 || n > 65535) throw new Error(`--${name} must be a port number between 1 and 65535 (got "${v}")`)
    return n
  }
  return { serve: values.serve ?? false, port: port("port", values.port), sandboxPort: port("sandbox-port", values["sandbox-port"]) }
}

function preflight(): void {
  const major = Number(process.versions.node.split(".")[0])
  if (major < 20) throw new DemoError(`Node.js ${process.versions.node} is too old`, "use Node.js 20 or newer (Medusa 2.21 needs it)")
  try {
    require.resolve("@medusajs/medusa/package.json", { paths: [REPO_ROOT] })
  } catch {
    throw new DemoError("the dependencies are not installed", "run `npm install` in the repository, then `npm run demo`")
  }
}

const rel = (p: string) => relative(process.cwd(), p) || "."
let watchdog: NodeJS.Timeout | undefined

export async function main(argv: string[]): Promise<void> {
  const t0 = Date.now()
  let flags: Flags | "help"
  try {
    flags = parseFlags(argv)
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n\n${USAGE}\n`)
    process.exit(2)
  }
  if (flags === "help") {
    line(USAGE)
    return
  }
  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    line()
    line(dim(`${signal}: stopping the store, the sandbox and the database ...`))
    mute()
    void shutdown().then(() => process.exit(signal === "SIGINT" ? 130 : signal === "SIGHUP" ? 129 : 143))
  }
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
  process.on("SIGHUP", stop)

  // the whole run is bounded: a hung step (an overloaded machine, a stuck service) ends the demo
  const limitS = Number(process.env.DEMO_TIMEOUT_SECONDS || 600)
  watchdog = setTimeout(() => {
    if (stopping) return
    stopping = true
    line()
    errorBlock(
      new DemoError(
        `the demo did not finish within ${limitS} s`,
        "the logs under demo/.data/logs show the step that hung; DEMO_TIMEOUT_SECONDS raises the limit",
      ),
    )
    mute()
    void shutdown().then(() => process.exit(1))
  }, limitS * 1000)
  watchdog.unref()

  let ok: boolean
  try {
    ok = await run(flags, t0)
  } catch (e) {
    line()
    errorBlock(e)
    ok = false
  }
  clearTimeout(watchdog)
  if (!stopping) {
    await shutdown()
    process.exit(ok ? 0 : 1)
  }
}

async function run(flags: Flags, t0: number): Promise<boolean> {
  preflight()
  line(bold("medusa-sales-tax demo"))
  line(dim("A Medusa 2.21 store with the plugin, against the embedded sandbox of the Sales Tax Service."))
  line()
  // this run's logs only
  rmSync(LOG_DIR, { recursive: true, force: true })
  mkdirSync(LOG_DIR, { recursive: true })

  // ports first: a busy port is the most common thing a user can fix
  const medusaPort = flags.port ?? (flags.serve ? 9000 : await freePort())
  await assertPortFree(medusaPort, "the Medusa server", "--port")
  if (flags.sandboxPort !== undefined) await assertPortFree(flags.sandboxPort, "the sandbox", "--sandbox-port")

  await step(
    `Plugin install from this checkout (compiled into ${rel(INSTALLED_PLUGIN)}${flags.serve ? ", admin extensions bundled" : ""})`,
    () => installPlugin({ admin: flags.serve }),
    (r) => `${r.files} files`,
  )

  const sandbox = await step(
    "Sales Tax Service sandbox (in process)",
    async () => {
      const sb = await startSandbox({
        port: flags.sandboxPort ?? 0,
        host: "127.0.0.1",
        apiKey: SANDBOX_API_KEY,
        connectionId: SANDBOX_CONNECTION_ID,
        // the wholesale channel's own connection (option `connections`, issue 16)
        connections: [WHOLESALE_CONNECTION],
      })
      onShutdown("sandbox", () => sb.close())
      return sb
    },
    (sb) => sb.url,
  )

  const pgLog = join(LOG_DIR, "postgres.log")
  const db = await step(
    process.env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : "PostgreSQL (embedded)",
    () => startDatabase((s) => appendFileSync(pgLog, s.endsWith("\n") ? s : `${s}\n`)),
    (d) => d.display,
  )

  const appEnv = {
    databaseUrl: db.url,
    salesTaxBaseUrl: sandbox.url,
    salesTaxApiKey: SANDBOX_API_KEY,
    salesTaxConnectionId: SANDBOX_CONNECTION_ID,
    salesTaxConnectionsJson: JSON.stringify([{ salesChannelIds: [WHOLESALE_CHANNEL_ID], ...WHOLESALE_CONNECTION }]),
    admin: flags.serve,
    adminEmail: "admin@example.com",
    adminPassword: "supersecret",
  }
  await step("Migrations (medusa db:migrate, with the plugin's modules)", () => migrate(appEnv))
  const seedFile = join(DATA_DIR, "seed.json")
  await step("Seed (medusa exec seed.ts: region, tax region on the provider, shipping, products with TICs)", () =>
    seedStore(appEnv, seedFile),
  )
  const seed = JSON.parse(readFileSync(seedFile, "utf8")) as DemoSeed
  for (const p of Object.values(seed.products)) {
    info(
      dim(
        `${p.title.padEnd(13)} $${p.price.toFixed(2).padStart(6)}  TIC ${String(p.tic).padEnd(5)} ${p.category} (${p.ticSource === "default" ? "no TIC assigned: the default" : `assigned on the ${p.ticSource.replace("product_", "product ")}`})`,
      ),
    )
  }
  if (flags.serve) await step("Admin build (medusa build --admin-only, with the plugin's widgets)", () => buildAdmin(appEnv))
  const store = await step(
    "Medusa server (medusa start)",
    () => startStore(appEnv, medusaPort),
    (s) => s.url,
  )

  // --------------------------------------------------------------------------------------------
  const service = new SalesTaxClient({ baseUrl: sandbox.url, apiKey: SANDBOX_API_KEY, connectionId: SANDBOX_CONNECTION_ID })
  const ctx = makeCtx(store.url, seed, service)
  const checks: Check[] = []

  const exempt = await step(
    `Exempt customer who submits its own certificate for ${EXEMPT_STATE} from the storefront (POST /store/sales-tax/certificates)`,
    () => createExemptCustomer(ctx),
    (r) => `${r.customerId}, certificate ${r.certificate.certificateId}`,
  )
  const creators = await certificateCreators(ctx, exempt.customerId)
  checks.push({
    what: `shopper certificate: created at the service for the logged-in customer; the admin shows it as created by the customer`,
    ok: creators[exempt.certificate.certificateId] === "customer",
    detail:
      creators[exempt.certificate.certificateId] === "customer"
        ? undefined
        : `the admin lists it as created by ${creators[exempt.certificate.certificateId] ?? "nobody known"}`,
  })

  const placed: PlacedOrder[] = []
  await step(
    `Storefront checkouts through @medusajs/js-sdk (${PLAN.length} orders)`,
    async () => {
      for (const p of PLAN) placed.push(await checkout(ctx, p, p.shopper === "exempt" ? exempt : undefined))
    },
    () => placed.map((p) => `#${p.displayId} ${p.plan.address.province}`).join(", "),
  )

  const filings = new Map<string, FilingView>()
  await step("Filing (order.placed -> the plugin files each order at the service)", async () => {
    for (const p of placed)
      filings.set(p.orderId, await waitForFiling(ctx, p.orderId, (f) => f.state === "filed" || f.state === "completed", "filed"))
  })

  const comparisons = new Map<string, Comparison>()
  for (const p of placed) {
    const charged = await chargedOrder(ctx, p.orderId)
    // the plan's order of lines (Medusa returns them in no fixed order), shipping last
    const rank = (productId: string | null) => {
      const i = p.plan.items.findIndex((it) => seed.products[it.product].id === productId)
      return i < 0 ? p.plan.items.length : i
    }
    charged.lines.sort((a, b) => (a.kind === b.kind ? rank(a.productId) - rank(b.productId) : a.kind === "item" ? -1 : 1))
    const filed = await filedOrder(ctx, p.orderId)
    if (!filed) {
      checks.push({ what: `order #${p.displayId} (${p.plan.label}) is at the service`, ok: false, detail: "GET /tax/orders answered 404" })
      continue
    }
    writeFileSync(join(LOG_DIR, `order-${p.displayId}.json`), JSON.stringify({ planned: p.plan, charged, filed }, null, 2))
    const cmp = compare(ctx, charged, filed, SHIPPING_TIC)
    comparisons.set(p.orderId, cmp)
    printOrderTable(
      `Order #${p.displayId}  ${p.plan.label}  ${p.plan.address.postal_code}`,
      `${p.orderId}: ${p.plan.note}`,
      cmp,
      filed,
      filings.get(p.orderId),
    )
    checks.push({
      what: `order #${p.displayId} ${p.plan.label}: tax charged ${cmp.chargedTotal.toFixed(2)} = tax filed ${cmp.filedTotal.toFixed(2)}, line by line, TICs as assigned`,
      ok: cmp.ok,
      detail: cmp.problems.join("; ") || undefined,
    })
    const incl = charged.lines.find((l) => l.taxInclusive)
    if (incl?.taxInclusive) {
      const filedLine = cmp.lines.find((l) => l.chargedLineId === incl.id)
      const exact = dec(incl.taxInclusive.net).plus(incl.tax).eq(incl.taxInclusive.shown)
      checks.push({
        what: `tax-inclusive price (order #${p.displayId}): the shopper paid the shown ${incl.taxInclusive.shown.toFixed(2)} for the ${incl.title}; the tax inside it ${incl.tax.toFixed(2)} = filed ${filedLine?.filed?.toFixed(2) ?? "-"}, on the net ${incl.taxInclusive.net.toFixed(2)}`,
        ok: exact && filedLine?.ok === true,
        detail: exact ? (filedLine?.problem ?? undefined) : `net + tax ≠ shown`,
      })
    }
    if (p.plan.shopper === "exempt") {
      const zero = cmp.chargedTotal === 0 && cmp.filedTotal === 0
      checks.push({
        what: `exempt checkout: 0.00 tax charged and 0.00 filed`,
        ok: zero,
        detail: zero ? undefined : `charged ${cmp.chargedTotal.toFixed(2)}, filed ${cmp.filedTotal.toFixed(2)}`,
      })
      const underCert = filed.exemption?.exemptionId ?? null
      checks.push({
        what: `exempt order filed under the customer's certificate ${exempt.certificate.certificateId}`,
        ok: underCert === exempt.certificate.certificateId,
        detail:
          underCert === exempt.certificate.certificateId
            ? undefined
            : `the service's order carries ${underCert ? `exemption ${underCert}` : "no exemption"}: a 0.00 tax order without its certificate does not hold up in an audit`,
      })
    }
  }

  // partial return ------------------------------------------------------------------------------
  const ret = placed[RETURN_ORDER]
  const retCmp = comparisons.get(ret.orderId)
  const returned = retCmp?.lines.find((l) => l.title === seed.products[RETURN_PRODUCT].title)
  if (!retCmp || !returned?.chargedLineId || !returned.serviceItemId || returned.charged === null) {
    checks.push({ what: "partial return: refund at the service", ok: false, detail: "the order to return from was not filed" })
  } else {
    const charged = await chargedOrder(ctx, ret.orderId)
    const returnId = await step(
      `Partial return of order #${ret.displayId}: ${returned.quantity} x ${returned.title} (fulfil, request, receive)`,
      async () => {
        await fulfilAll(ctx, ret.orderId, charged)
        return returnItems(ctx, ret.orderId, [{ id: returned.chargedLineId!, quantity: returned.quantity }])
      },
      (id) => id,
    )
    await step("Refund (order.return_received -> the plugin refunds the returned item at the service)", () =>
      waitForFiling(ctx, ret.orderId, (f) => (f.refunds ?? []).some((r) => r.source_id === returnId && r.state === "refunded"), "refunded"),
    )
    const filed = await filedOrder(ctx, ret.orderId)
    const refundLines = (filed?.refunds ?? []).flatMap((r) => r.items).filter((i) => i.itemId === returned.serviceItemId)
    const refundedQty = sum(refundLines.map((i) => dec(i.quantity))).toNumber()
    const refundedTax = roundCents(sum(refundLines.map((i) => dec(i.tax.amount).abs())))
    const good = refundLines.length > 0 && refundedQty === returned.quantity && refundedTax === returned.charged
    line()
    line(bold(`Return ${returnId} on order #${ret.displayId}`))
    line(
      `  ${returned.title} x ${returned.quantity}: tax charged ${returned.charged.toFixed(2)}, tax refunded at the service ${refundedTax.toFixed(2)} (quantity ${refundedQty})  ${good ? green("OK") : red("MISMATCH")}`,
    )
    const netFiled = roundCents(dec(retCmp.filedTotal).minus(refundedTax))
    const netCharged = roundCents(dec(retCmp.chargedTotal).minus(returned.charged))
    line(
      `  net tax of the order: charged ${netCharged.toFixed(2)}, filed ${netFiled.toFixed(2)}  ${netFiled === netCharged ? green("OK") : red("MISMATCH")}`,
    )
    checks.push({
      what: `partial return: ${returned.title} x ${returned.quantity} refunded at the service (${refundedTax.toFixed(2)} tax = ${returned.charged.toFixed(2)} charged); net ${netFiled.toFixed(2)} filed = ${netCharged.toFixed(2)} charged`,
      ok: good && netFiled === netCharged,
      detail: good
        ? undefined
        : `refund lines at the service: ${JSON.stringify(refundLines.map((i) => ({ itemId: i.itemId, quantity: i.quantity, tax: i.tax.amount })))}`,
    })
  }

  // order edit ----------------------------------------------------------------------------------
  const ed = placed[EDIT_ORDER]
  const lamp = seed.products.lamp
  const beforeEdit = await chargedOrder(ctx, ed.orderId)
  const editId = await step(
    `Order edit of order #${ed.displayId} (${ed.plan.label}): + 1 x ${lamp.title} (admin order edit, confirmed)`,
    () => editOrderAdd(ctx, ed.orderId, [{ variant_id: lamp.variantId, quantity: 1 }]),
    (id) => id,
  )
  const edited = await step(
    "Refile (order-edit.confirmed -> before the void cutoff the plugin voids the order and files it again whole)",
    () => waitForFiling(ctx, ed.orderId, (f) => (f.edits ?? []).some((e) => e.id === editId && e.state === "applied"), "edit applied"),
  )
  const afterEdit = await chargedOrder(ctx, ed.orderId)
  const filedAfterEdit = await filedOrder(ctx, ed.orderId)
  if (!filedAfterEdit) {
    checks.push({
      what: `order edit: order #${ed.displayId} is at the service after the edit`,
      ok: false,
      detail: "GET /tax/orders answered 404",
    })
  } else {
    const cmp = compare(ctx, afterEdit, filedAfterEdit, SHIPPING_TIC)
    printOrderTable(
      `Order #${ed.displayId} after edit ${editId}`,
      `Medusa's tax ${beforeEdit.taxTotal.toFixed(2)} -> ${afterEdit.taxTotal.toFixed(2)}; the service holds the edited order`,
      cmp,
      filedAfterEdit,
      edited,
    )
    const mode = (edited.edits ?? []).find((e) => e.id === editId)?.mode ?? "?"
    checks.push({
      what: `order edit: order #${ed.displayId}'s tax ${beforeEdit.taxTotal.toFixed(2)} -> ${afterEdit.taxTotal.toFixed(2)} in Medusa; filed ${cmp.filedTotal.toFixed(2)} line by line (${mode})`,
      ok: cmp.ok && afterEdit.taxTotal > beforeEdit.taxTotal && cmp.filedTotal === afterEdit.taxTotal,
      detail: cmp.problems.join("; ") || undefined,
    })
  }

  // replace claim -------------------------------------------------------------------------------
  const cl = placed[CLAIM_ORDER]
  const tshirt = seed.products.tshirt
  const beforeClaim = await chargedOrder(ctx, cl.orderId)
  const claimedLine = beforeClaim.lines.find((l) => l.kind === "item" && l.productId === tshirt.id)
  if (!claimedLine) {
    checks.push({ what: "replace claim: the order has a T-shirt to claim", ok: false })
  } else {
    const filedBefore = await filedOrder(ctx, cl.orderId)
    const claimId = await step(
      `Replace claim on order #${cl.displayId} (${cl.plan.label}): 1 x ${tshirt.title} replaced by 1 x ${tshirt.title}`,
      async () => {
        if (CLAIM_ORDER !== RETURN_ORDER) await fulfilAll(ctx, cl.orderId, beforeClaim) // the return step shipped its order already
        return replaceClaim(ctx, cl.orderId, [{ id: claimedLine.id, quantity: 1 }], [{ variant_id: tshirt.variantId, quantity: 1 }])
      },
      (id) => id,
    )
    const claimRec = await step(
      "Claim (order.claim_created -> a like-for-like replacement costs the customer no tax: nothing refunded, nothing filed)",
      () => waitForFiling(ctx, childOrderId(claimId), (f) => f.state === "skipped" || f.state === "completed", "claim recorded"),
    )
    const afterClaim = await chargedOrder(ctx, cl.orderId)
    const filedAfter = await filedOrder(ctx, cl.orderId)
    const atService = await filedOrder(ctx, childOrderId(claimId))
    const refundedNow = (filedAfter?.refunds ?? []).length - (filedBefore?.refunds ?? []).length
    line()
    line(bold(`Replace claim ${claimId} on order #${cl.displayId}`))
    line(
      `  Medusa's order tax ${beforeClaim.taxTotal.toFixed(2)} -> ${afterClaim.taxTotal.toFixed(2)} (Medusa taxes the replacement it adds to the order)`,
    )
    line(
      `  tax the customer pays for the replacement: 0.00 (replacement's tax minus the claimed unit's); filing record ${claimRec.state}: ${claimRec.last_error ?? ""}`,
    )
    line(
      `  at the service: ${refundedNow === 0 ? green("no refund") : red(`${refundedNow} refunds`)} on #${cl.displayId}, ${atService ? red("an order for the claim") : green("no order for the claim")}`,
    )
    const ok = claimRec.state === "skipped" && refundedNow === 0 && atService === null && afterClaim.taxTotal > beforeClaim.taxTotal
    checks.push({
      what: `replace claim: order #${cl.displayId}'s tax ${beforeClaim.taxTotal.toFixed(2)} -> ${afterClaim.taxTotal.toFixed(2)} in Medusa, the customer pays 0.00 more; nothing refunded or filed at the service`,
      ok,
      detail: ok
        ? undefined
        : `filing record ${claimRec.state}; ${refundedNow} new refunds; claim order at the service: ${atService ? "yes" : "no"}`,
    })
  }

  // cancellation --------------------------------------------------------------------------------
  const can = placed[CANCEL_ORDER]
  await step(`Cancellation of order #${can.displayId} (${can.plan.label}) through the admin API`, () => cancelOrder(ctx, can.orderId))
  await step("Void (order.canceled -> the plugin voids the order at the service)", () =>
    waitForFiling(ctx, can.orderId, (f) => f.state === "voided", "voided"),
  )
  const afterVoid = await filedOrder(ctx, can.orderId)
  line()
  line(bold(`Cancellation of order #${can.displayId}`))
  line(
    `  GET /tax/orders/${can.orderId} at the service: ${afterVoid ? red(`still there (${afterVoid.lineItems.length} lines)`) : green("404, voided")}`,
  )
  checks.push({ what: `cancellation: order #${can.displayId} voided at the service (GET answers 404)`, ok: afterVoid === null })

  // a second sales channel on its own connection, shipping from a second warehouse (issue 16) --
  const wh = await step(
    `Wholesale channel (${WHOLESALE_CHANNEL_ID}, its own connection ${WHOLESALE_CONNECTION.connectionId.slice(0, 8)}…, ships from Austin, TX): a storefront checkout`,
    () => wholesaleCheckout(ctx, sandbox.url),
    (w) => `#${w.displayId}`,
  )
  const perConnection = await countsByConnection(sandbox.url, SANDBOX_API_KEY)
  line()
  line(bold("Connections and ship-from locations"))
  for (const [label, cid] of [
    ["default connection (Demo webshop, ships from Seattle, WA)", SANDBOX_CONNECTION_ID],
    ["wholesale connection (Demo wholesale, ships from Austin, TX)", WHOLESALE_CONNECTION.connectionId],
  ] as const) {
    const c = perConnection[cid] ?? {}
    const ops = Object.entries(c)
      .filter(([, n]) => n > 0)
      .map(([op, n]) => `${op} ${n}`)
      .join(", ")
    line(`  ${label}: ${ops || "no calls"}`)
  }
  line(
    `  order #${wh.displayId}: at its own connection ${wh.filed ? green(`filed, origin ${wh.filed.origin.city}, ${wh.filed.origin.state}`) : red("not found")}; at the default connection ${wh.onDefault ? red("found") : green("not found")}`,
  )
  const whTax = wh.filed ? roundCents(sum(wh.filed.lineItems.map((l) => dec(l.tax.amount)))) : null
  checks.push({
    what: `wholesale channel: order #${wh.displayId} filed on its own connection (not the default), from the Austin warehouse (TX), tax filed ${whTax?.toFixed(2) ?? "?"} = charged ${wh.chargedTax.toFixed(2)}`,
    ok: !!wh.filed && !wh.onDefault && wh.filed.origin.state === "TX" && whTax !== null && dec(whTax).eq(roundCents(wh.chargedTax)),
    detail: !wh.filed ? "not at its connection" : wh.onDefault ? "also at the default connection" : undefined,
  })
  const defaultCalls = perConnection[SANDBOX_CONNECTION_ID] ?? {}
  const wholesaleCalls = perConnection[WHOLESALE_CONNECTION.connectionId] ?? {}
  checks.push({
    what: "each connection did its own channel's work (sandbox counts per connection): the webshop's filings on the default, the wholesale order's on its own",
    ok:
      (wholesaleCalls.calculateCarts ?? 0) >= 1 &&
      (wholesaleCalls.cartToOrder ?? 0) + (wholesaleCalls.createOrder ?? 0) === 1 &&
      (defaultCalls.calculateCarts ?? 0) >= 1,
  })

  // the month's reconciliation ----------------------------------------------------------------
  const month = new Date().toISOString().slice(0, 7)
  const rec = await step(`Reconciliation of ${month} (GET /admin/sales-tax/reconciliation)`, () => monthReconciliation(ctx, month))
  printReconciliation(rec)
  checks.push({
    what: `reconciliation of ${month}: ${rec.summary.orders} orders, net charged = net filed (charged ${rec.summary.charged} − refunded ${rec.summary.refunded_to_customers} = filed ${rec.summary.filed} − refunded ${rec.summary.refunded_at_service})`,
    ok: rec.summary.difference === "0.00" && rec.differences_count === 0,
    detail: rec.differences_count ? `${rec.differences_count} orders differ by ${rec.summary.difference}` : undefined,
  })

  // the service-call log (Settings → Sales Tax → Activity) ---------------------------------------
  const log = await step(
    "Service-call log (GET /admin/sales-tax/activity)",
    () => activity(ctx),
    (r) => `${r.count} calls`,
  )
  const unlogged: string[] = []
  for (const p of placed) if ((await activity(ctx, `order_id=${p.orderId}`)).count === 0) unlogged.push(`#${p.displayId}`)
  const byOp = new Map<string, number>()
  for (const e of log.entries) byOp.set(e.operation, (byOp.get(e.operation) ?? 0) + 1)
  line()
  line(bold("Service-call log (Settings → Sales Tax → Activity)"))
  line(`  ${log.count} calls to the service; the latest ${log.entries.length}: ${[...byOp].map(([op, n]) => `${op} ${n}`).join(", ")}`)
  checks.push({
    what: `service-call log: every order's calls logged under its id (${placed.length} orders, ${log.count} calls in all)`,
    ok: unlogged.length === 0 && log.count > 0,
    detail: unlogged.length ? `no logged call for ${unlogged.join(", ")}` : undefined,
  })

  const passed = printSummary(checks, Date.now() - t0)

  if (flags.serve) {
    clearTimeout(watchdog)
    const adminUrl = `http://localhost:${store.port}/app`
    const adminUp = await fetch(adminUrl)
      .then((r) => r.status === 200)
      .catch(() => false)
    line()
    line(bold("The store keeps running. Ctrl-C stops the store, the sandbox and the database."))
    info(
      `Admin      ${adminUrl}   login ${appEnv.adminEmail} / ${appEnv.adminPassword}${adminUp ? "" : red("  (the admin did not answer: see the server log)")}`,
    )
    info(`Store API  http://localhost:${store.port}/store   publishable key ${seed.publishableKey}`)
    info(`Sandbox    ${sandbox.url}   connection ${SANDBOX_CONNECTION_ID} (the sandbox's default key, docs/sandbox.md)`)
    info(`Database   ${db.display}`)
    info(`Logs       ${rel(LOG_DIR)}/   app ${rel(APP_DIR)}`)
    info(
      dim(
        "In the admin: Orders (the Sales tax filing widget), Customers > Hillside Elementary School (certificates, created by the customer), Products (TICs), Settings > Sales Tax (Activity, Reconciliation).",
      ),
    )
    await new Promise<never>(() => undefined)
  }
  return passed
}
