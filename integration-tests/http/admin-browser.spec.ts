/**
 * Browser tests of the admin extensions: a Medusa app with the admin on and the plugin installed
 * (integration-tests/browser/harness.ts), the sandbox in-process, Debian's chromium through
 * playwright-core. Logs in, sets a product's (and a product type's) TIC through search, adds a
 * certificate (after seeing the field validation messages) and disables it, sees an order's failed
 * filing record and retries it, follows its link to the service-call log (Activity page, filters,
 * detail drawer), sees an order's lifecycle states (an edit, replace claims, a refund
 * without a return not filed) and files the refund as a credit, sees a tax-inclusive order's filing (the
 * net and the tax inside the shown price, charged = filed), sees a certificate a shopper submitted
 * through the storefront marked "by the customer", opens the settings page, and accepts the unclassified
 * products' suggestions (the starter's sweatpants then taxed $0.00 in New York). Writes its screenshots to the git-ignored
 * .tmp/screenshots; `UPDATE_SCREENSHOTS=1 npm test` writes them to docs/screenshots instead.
 * Lives in the integration:http suite so that `npm test` runs it; it does not use the Medusa test
 * runner (which forces the admin off).
 */
import { mkdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core"
import { SalesTaxClient } from "../../src/service/client"
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  CHROMIUM,
  LOG_DIR,
  SANDBOX_CONNECTION,
  SANDBOX_KEY,
  SECOND_CONNECTION,
  SCREENSHOTS as SHOTS,
  startBrowserApp,
  type BrowserApp,
} from "../browser/harness"

// the last resort only: the app's build, migrations and start are bounded by progress
// (scripts/stall.ts), so a hang ends within minutes while a loaded machine only makes them slower
jest.setTimeout(60 * 60_000)

// a UI wait returns as soon as its element shows: a generous bound costs nothing on success and
// holds on a loaded machine (Chromium and the admin share the cores with the rest of the run)
const UI_TIMEOUT = 120_000

describe("admin extensions in a browser", () => {
  let app: BrowserApp
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let service: SalesTaxClient

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    app = await startBrowserApp()
    service = new SalesTaxClient({ baseUrl: app.sandbox.url, apiKey: SANDBOX_KEY, connectionId: SANDBOX_CONNECTION, retry: false })
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
      ],
    })
    context = await browser.newContext({ viewport: { width: 1440, height: 1000 } })
    context.setDefaultTimeout(UI_TIMEOUT)
    page = await context.newPage()
  })

  afterAll(async () => {
    await context?.close().catch(() => undefined)
    await browser?.close().catch(() => undefined)
    await app?.close()
  })

  /** The admin API as the logged-in browser sees it (session cookie). */
  async function adminGet(path: string): Promise<any> {
    const r = await page.request.get(`${app.url}${path}`)
    expect(r.status()).toBe(200)
    return r.json()
  }

  async function shot(locator: Locator, name: string) {
    await locator.scrollIntoViewIfNeeded()
    await locator.screenshot({ path: join(SHOTS, name), animations: "disabled" })
  }

  async function pickOption(trigger: Locator, name: string) {
    await trigger.click()
    await page.getByRole("option", { name, exact: true }).click()
  }

  /** Searches TICs in a TIC widget and returns the first result and its code. */
  async function searchFirst(widget: Locator, query: string): Promise<{ first: Locator; chosen: number }> {
    await widget.getByTestId("tic-search-input").fill(query)
    await widget.getByTestId("tic-search-button").click()
    const first = widget.locator('[data-testid^="tic-result-"]').first()
    await first.waitFor()
    return { first, chosen: Number((await first.getAttribute("data-testid"))!.replace("tic-result-", "")) }
  }

  /** Clicks "Use" on a search result and waits until the widget resolves to that TIC. */
  async function useResult(widget: Locator, result: Locator, chosen: number) {
    await result.getByRole("button", { name: "Use" }).click()
    await expect(widget.getByTestId("tic-resolved-code")).toBeVisibleText(new RegExp(`^${chosen}$`))
  }

  it("logs in to the admin", async () => {
    await page.goto(`${app.adminUrl}/login`)
    await page.locator('input[name="email"]').fill(ADMIN_EMAIL)
    await page.locator('input[name="password"]').fill(ADMIN_PASSWORD)
    await page.getByRole("button", { name: /continue/i }).click()
    await page.waitForURL((u) => !u.pathname.endsWith("/login"), { timeout: UI_TIMEOUT })
    expect(new URL(page.url()).pathname).not.toMatch(/login/)
  })

  it("product widget: shows the default TIC, sets the product's TIC through the service's search, then shows it as the product's own", async () => {
    const { productId } = app.seeded
    await page.goto(`${app.adminUrl}/products/${productId}`)
    const widget = page.getByTestId("sales-tax-tic-product")
    await expect(widget.getByTestId("tic-source")).toBeVisibleText(/store default/)

    const searchesBefore = await countOf("searchTics")
    const { first, chosen } = await searchFirst(widget, "t-shirt clothing")
    expect(Number.isInteger(chosen)).toBe(true)
    expect(await countOf("searchTics")).toBeGreaterThan(searchesBefore)
    await shot(widget, "product-tic-search.png")

    await useResult(widget, first, chosen)
    await expect(widget.getByTestId("tic-source")).toBeVisibleText(/set on this product/)
    await shot(widget, "product-tic.png")

    const stored = await adminGet(`/admin/sales-tax/tics/product/${productId}`)
    expect(stored.resolved).toMatchObject({ source: "product", tic: { ticId: chosen } })
    expect(stored.assigned.ticId).toBe(chosen)
  })

  it("product type widget: sets the type's default TIC; after clearing the product's own, the product resolves to the type's", async () => {
    const { productTypeId, productId } = app.seeded
    await page.goto(`${app.adminUrl}/settings/product-types/${productTypeId}`)
    const widget = page.getByTestId("sales-tax-tic-product-type")
    const { first, chosen } = await searchFirst(widget, "clothing")
    await useResult(widget, first, chosen)
    await shot(widget, "product-type-tic.png")

    await page.goto(`${app.adminUrl}/products/${productId}`)
    const pw = page.getByTestId("sales-tax-tic-product")
    await pw.getByTestId("tic-clear").click()
    await expect(pw.getByTestId("tic-source")).toBeVisibleText(/from the product type/)
    await expect(pw.getByTestId("tic-resolved-code")).toBeVisibleText(new RegExp(`^${chosen}$`))
    const stored = await adminGet(`/admin/sales-tax/tics/product/${productId}`)
    expect(stored.resolved).toMatchObject({ source: "product_type", sourceId: productTypeId, tic: { ticId: chosen } })
    expect(stored.assigned).toBeNull()
  })

  it("category widget: sets the category's default TIC through search; the product keeps its type's (type before category)", async () => {
    const { categoryId, productId, productTypeId } = app.seeded
    await page.goto(`${app.adminUrl}/categories/${categoryId}`)
    const widget = page.getByTestId("sales-tax-tic-product-category")
    await expect(widget.getByTestId("tic-source")).toBeVisibleText(/store default/)
    const { first, chosen } = await searchFirst(widget, "shirts")
    await useResult(widget, first, chosen)
    await shot(widget, "product-category-tic.png")
    const cat = await adminGet(`/admin/sales-tax/tics/product-category/${categoryId}`)
    expect(cat.resolved).toMatchObject({ source: "product_category", tic: { ticId: chosen } })
    const product = await adminGet(`/admin/sales-tax/tics/product/${productId}`)
    expect(product.resolved).toMatchObject({ source: "product_type", sourceId: productTypeId })
    expect(product.chain.categories).toEqual([expect.objectContaining({ id: categoryId, tic: expect.objectContaining({ ticId: chosen }) })])
  })

  it("customer widget: shows field validation messages, creates a certificate at the service, then disables it", async () => {
    const { customerId } = app.seeded
    await page.goto(`${app.adminUrl}/customers/${customerId}`)
    const widget = page.getByTestId("sales-tax-certificates")
    await widget.getByTestId("certificate-add").click()
    const drawer = page.getByTestId("certificate-drawer")
    await drawer.waitFor()
    await drawer.getByTestId("certificate-save").click()
    for (const f of ["address.line1", "address.city", "address.state", "reason", "customerBusinessType", "states[0].abbreviation"]) {
      await drawer.getByTestId(`error-${f}`).waitFor()
    }
    await drawer.locator("#st-address\\.zip").fill("981")
    await drawer.getByTestId("certificate-save").click()
    await expect(drawer.getByTestId("error-address.zip")).toBeVisibleText(/5 digits/)
    await drawer.screenshot({ path: join(SHOTS, "certificate-validation.png"), animations: "disabled" })
    expect((await service.listCertificates({ customerId })).items).toHaveLength(0)

    await drawer.locator("#st-address\\.line1").fill("500 Pine St")
    await drawer.locator("#st-address\\.city").fill("Seattle")
    await pickOption(drawer.getByTestId("select-address.state"), "WA")
    await drawer.locator("#st-address\\.zip").fill("98101")
    await pickOption(drawer.getByTestId("select-reason"), "Resale")
    await pickOption(drawer.getByTestId("select-customerBusinessType"), "Wholesale trade")
    await pickOption(drawer.getByTestId("select-states[0].abbreviation"), "WA")
    await drawer.locator("#st-states\\[0\\]\\.identificationNumber").fill("603-123-456")
    await drawer.getByTestId("certificate-save").click()
    await drawer.waitFor({ state: "detached" })

    const row = widget.locator('[data-status="active"]')
    await row.waitFor()
    const atService = await service.listCertificates({ customerId })
    expect(atService.items).toHaveLength(1)
    expect(atService.items[0]).toMatchObject({
      customerName: "Acme Wholesale LLC",
      reason: "Resale",
      customerBusinessType: "WholesaleTrade",
      disabledAt: null,
    })
    expect(atService.items[0]!.states).toEqual([{ abbreviation: "WA", identificationNumber: "603-123-456" }])
    await shot(widget, "customer-certificates.png")

    await row.getByTestId("certificate-disable").click()
    await page.getByRole("alertdialog").getByRole("button", { name: "Disable" }).click()
    await widget.locator('[data-status="disabled"]').waitFor()
    expect(await widget.locator('[data-status="active"]').count()).toBe(0)
    const after = await service.getCertificate(atService.items[0]!.certificateId)
    expect(after.disabledAt).not.toBeNull()
    await shot(widget, "customer-certificates-disabled.png")
  })

  it("customer widget: a certificate the shopper submitted through the storefront (/store/sales-tax/certificates) shows as created by the customer", async () => {
    // a publishable key (admin API, the browser's session), a registered customer, and the store route
    const key = await page.request.post(`${app.url}/admin/api-keys`, { data: { title: "Storefront", type: "publishable" } })
    expect(key.status()).toBe(200)
    const pk = (await key.json()).api_key.token as string
    const email = "shopper-cert@example.com"
    const password = "shopper-pass-123"
    const reg = await page.request.post(`${app.url}/auth/customer/emailpass/register`, { data: { email, password } })
    expect(reg.status()).toBe(200)
    const created = await page.request.post(`${app.url}/store/customers`, {
      headers: { "x-publishable-api-key": pk, authorization: `Bearer ${(await reg.json()).token}` },
      data: { email, first_name: "Lee", last_name: "Buyer" },
    })
    expect(created.status()).toBe(200)
    const customerId = (await created.json()).customer.id as string
    const login = await page.request.post(`${app.url}/auth/customer/emailpass`, { data: { email, password } })
    const cert = await page.request.post(`${app.url}/store/sales-tax/certificates`, {
      headers: { "x-publishable-api-key": pk, authorization: `Bearer ${(await login.json()).token}` },
      data: {
        customerName: "Lakeside School District",
        address: { line1: "350 S 5th St", city: "Minneapolis", state: "MN", zip: "55415" },
        reason: "EducationalOrganization",
        customerBusinessType: "EducationAndHealthCareServices",
        states: [{ abbreviation: "MN", identificationNumber: "ED-4471" }],
      },
    })
    expect(cert.status()).toBe(201)
    const certificateId = (await cert.json()).certificate.certificateId as string
    expect((await service.getCertificate(certificateId)).customerId).toBe(customerId)

    await page.goto(`${app.adminUrl}/customers/${customerId}`)
    const widget = page.getByTestId("sales-tax-certificates")
    const row = widget.getByTestId(`certificate-${certificateId}`)
    await expect(row.getByTestId("certificate-created-by")).toBeVisibleText(/^by the customer$/)
    // a shopper's certificate waits for review (shopperCertificates: "review"); staff approve it here
    expect(await row.getAttribute("data-status")).toBe("pending")
    await shot(widget, "customer-certificates-shopper.png")
    await row.getByTestId("certificate-approve").click()
    await expect(row.getByTestId("certificate-status")).toBeVisibleText(/^Active$/)
  })

  it("reconciliation page: the month's figures, the failed order listed with its reason and Fix, a backfill that skips what has a record", async () => {
    const { orderId } = app.seeded
    const month = new Date().toISOString().slice(0, 7)
    const report = await adminGet(`/admin/sales-tax/reconciliation?month=${month}`)
    expect(report.summary.orders).toBe(1)
    expect(report.differences.map((d: { order_id: string; reason: string }) => [d.order_id, d.reason])).toEqual([[orderId, "failed"]])
    await page.setViewportSize({ width: 1440, height: 1400 })
    await page.goto(`${app.adminUrl}/settings/sales-tax/reconciliation`)
    const root = page.getByTestId("sales-tax-reconciliation")
    await expect(root.getByTestId("recon-orders")).toBeVisibleText(/Orders\s*1$/)
    await expect(root.getByTestId("recon-charged")).toBeVisibleText(new RegExp(`${report.summary.charged.replace(".", "\\.")}$`))
    const row = root.getByTestId(`recon-row-${orderId}`)
    await expect(row).toBeVisibleText(/Failed.*503 Service Unavailable/)
    await expect(row.getByTestId(`recon-fix-${orderId}`)).toBeVisibleText(/^Fix$/)
    await shot(root, "reconciliation.png")

    // backfill today: the one order has a filing record, so it is skipped and nothing reaches the service
    const writesBefore = (await countOf("createOrder")) + (await countOf("cartToOrder"))
    const backfill = root.getByTestId("backfill")
    const today = new Date().toISOString().slice(0, 10)
    await backfill.getByTestId("backfill-from").fill(today)
    await backfill.getByTestId("backfill-to").fill(today)
    await backfill.getByTestId("backfill-start").click()
    await expect(backfill.getByTestId("backfill-figures")).toBeVisibleText(/^1 \/ 1 orders .* filed 0 .* skipped 1 · failed 0$/)
    await expect(backfill.getByTestId("backfill-progress").getByText("done", { exact: true })).toBeVisibleText(/^done$/)
    expect((await countOf("createOrder")) + (await countOf("cartToOrder"))).toBe(writesBefore)
    await shot(backfill, "reconciliation-backfill.png")
    await page.setViewportSize({ width: 1440, height: 1000 })
  })

  it("order widget: shows the failed filing record, retries it, and the order is then at the service", async () => {
    const { orderId } = app.seeded
    await expect(service.getOrder(orderId)).rejects.toMatchObject({ status: 404 })
    // the settings page lists it among the recent failures, linked to the order
    await page.goto(`${app.adminUrl}/settings/sales-tax`)
    const failures = page.getByTestId("settings-failures")
    await expect(failures.getByTestId(`failure-${orderId}`)).toBeVisibleText(/503/)
    await shot(failures, "settings-failures.png")
    await failures.getByTestId(`failure-${orderId}`).getByRole("link", { name: orderId }).click()
    await page.waitForURL((u) => u.pathname.endsWith(`/orders/${orderId}`))
    const widget = page.getByTestId("sales-tax-filing")
    await expect(widget.getByTestId("filing-state")).toBeVisibleText(/failed/)
    await expect(widget.getByTestId("filing-last-error")).toBeVisibleText(/503/)
    await expect(widget.getByTestId("filing-order-id")).toBeVisibleText(new RegExp(orderId))
    await shot(widget, "order-filing-failed.png")

    await widget.getByTestId("filing-retry").click()
    await expect(widget.getByTestId("filing-state")).toBeVisibleText(/^(filed|completed)$/)
    const filed = await service.getOrder(orderId)
    expect(filed.orderId).toBe(orderId)
    const record = await adminGet(`/admin/sales-tax/filings/${orderId}`)
    expect(["filed", "completed"]).toContain(record.filing.state)
    await shot(widget, "order-filing.png")
  })

  it("activity page: the order's service calls from its widget's link, filters, the detail drawer; never the key", async () => {
    const { orderId } = app.seeded
    await page.goto(`${app.adminUrl}/orders/${orderId}`)
    await page.getByTestId("sales-tax-filing").getByTestId("filing-activity-link").click()
    await page.waitForURL((u) => u.pathname.endsWith("/settings/sales-tax/activity") && u.searchParams.get("order_id") === orderId)
    const root = page.getByTestId("sales-tax-activity")
    // the retry of the previous test wrote the order at the service: its calls are logged with the order id
    // (the app writes its log every 2 s, off the request path)
    let logged = await adminGet(`/admin/sales-tax/activity?order_id=${orderId}`)
    for (let i = 0; i < 50 && logged.count === 0; i++) {
      await new Promise((r) => setTimeout(r, 200))
      logged = await adminGet(`/admin/sales-tax/activity?order_id=${orderId}`)
    }
    expect(logged.count).toBeGreaterThanOrEqual(1)
    // the page may have loaded before that flush: load it again
    await page.reload()
    expect(logged.entries.every((e: { order_id: string }) => e.order_id === orderId)).toBe(true)
    expect(logged.entries.some((e: { status: number | null }) => e.status !== null && e.status >= 200 && e.status < 300)).toBe(true)
    await expect(root.getByTestId("activity-count")).toBeVisibleText(new RegExp(`of ${logged.count} calls$`))
    const first = logged.entries[0] as { id: string; operation: string }
    await root.getByTestId(`activity-${first.id}`).click()
    const drawer = page.getByTestId("activity-detail")
    await expect(drawer).toBeVisibleText(new RegExp(first.operation))
    await expect(drawer.getByTestId("activity-request-body")).toBeVisibleText(/Not kept/)
    await drawer.screenshot({ path: join(SHOTS, "activity-detail.png"), animations: "disabled" })
    await page.keyboard.press("Escape")
    // every call of the app (the admin's TIC searches, certificates, quotes), then errors only
    await page.goto(`${app.adminUrl}/settings/sales-tax/activity`)
    const all = await adminGet("/admin/sales-tax/activity")
    await expect(root.getByTestId("activity-count")).toBeVisibleText(new RegExp(`of ${all.count} calls$`))
    // the settings layout scrolls inside its own container: a tall viewport shows the whole page
    await page.setViewportSize({ width: 1440, height: 1500 })
    await page.screenshot({ path: join(SHOTS, "activity.png"), animations: "disabled" })
    await page.setViewportSize({ width: 1440, height: 1000 })
    const errors = await adminGet("/admin/sales-tax/activity?errors_only=true")
    await root.getByTestId("activity-errors-only").click()
    await expect(root.getByTestId(errors.count ? "activity-count" : "activity-none")).toBeVisibleText(
      errors.count ? new RegExp(`of ${errors.count} calls$`) : /No call/,
    )
    expect(await page.content()).not.toContain(SANDBOX_KEY)
  })

  it("order widget, lifecycle states: an applied edit, replace claims with what is charged, a refund without a return not filed; File as credit files it once", async () => {
    const { orderId, editId, likeClaimId, dearerClaimId, refundId } = app.seeded.lifecycle
    await page.setViewportSize({ width: 1440, height: 1600 })
    await page.goto(`${app.adminUrl}/orders/${orderId}`)
    const widget = page.getByTestId("sales-tax-filing")
    await expect(widget.getByTestId("filing-state")).toBeVisibleText(/^completed$/)
    await expect(widget.getByTestId("filing-edits")).toBeVisibleText(new RegExp(`^${editId}: applied \\(voided and filed again\\)$`))
    await expect(widget.getByTestId(`filing-child-${likeClaimId}`)).toBeVisibleText(
      /skipped.*charged = replacement \$2\.38 − claimed \$2\.38 = \$0\.00.*costs the customer no tax/,
    )
    await expect(widget.getByTestId(`filing-child-${dearerClaimId}`)).toBeVisibleText(
      /completed.*charged = replacement \$11\.40 − claimed \$2\.38 = \$9\.02.*charged \$9\.02 · filed \$9\.02/,
    )
    // the refund: $5 of $54.75 with $4.75 tax → $0.43 of tax, not filed, with the button
    const refund = widget.getByTestId(`filing-manual-refund-${refundId}`)
    await expect(refund).toBeVisibleText(/^tax \$0\.43not filedFile as credit$/)
    await expect(widget.getByText(/^\$5\.00 refunded /)).toBeVisibleText(/^\$5\.00 refunded \d/)
    await shot(widget, "order-filing-lifecycle.png")

    const writes = await countOf("createOrder")
    await refund.getByTestId("filing-file-credit").click()
    await expect(refund).toBeVisibleText(/^tax \$0\.43credit completed$/)
    expect(await countOf("createOrder")).toBe(writes + 1)
    const credit = await service.getOrder(`credit_${refundId}`)
    expect([credit.kind, credit.lineItems.map((l) => [l.itemId, l.tax.amount])]).toEqual(["credit", [[`refund:${refundId}`, -0.43]]])
    const life = await adminGet(`/admin/sales-tax/filings/${orderId}/lifecycle`)
    expect(life.manual_refunds.map((r: { refundId: string; filing: string | null }) => [r.refundId, r.filing])).toEqual([
      [refundId, "completed"],
    ])
    await expect(widget.getByTestId(`filing-child-credit_${refundId}`)).toBeVisibleText(/^completed.*charged \$0\.43 · filed/)
    await shot(widget, "order-filing-credit.png")
    await page.setViewportSize({ width: 1440, height: 1000 })
  })

  it("order widget at 1280 px: nothing overflows its column (refunds stacked); a needs_attention order shows its reason and the fix, which files it once", async () => {
    const { orderId, returnKey } = app.seeded.attention
    await page.setViewportSize({ width: 1280, height: 1400 })
    await page.goto(`${app.adminUrl}/orders/${app.seeded.lifecycle.orderId}`)
    const widget = page.getByTestId("sales-tax-filing")
    await expect(widget.getByTestId(`filing-refund-${returnKey}`)).toBeVisibleText(/refunded.*return.*tax \$2\.38/)
    // the widget's column, its refunds and any table in it: no content wider than the box (issue 30)
    const overflow = await widget.evaluate((root) =>
      [root, ...Array.from(root.querySelectorAll('table, [data-testid="filing-refunds"], [data-testid^="filing-refund-"]'))]
        .filter((e) => e.scrollWidth > e.clientWidth + 1)
        .map((e) => `${e.tagName.toLowerCase()}[${e.getAttribute("data-testid") ?? ""}] ${e.scrollWidth} > ${e.clientWidth}`),
    )
    expect(overflow).toEqual([])
    await shot(widget, "order-filing-1280.png")

    await page.goto(`${app.adminUrl}/orders/${orderId}`)
    await expect(widget.getByTestId("filing-state")).toBeVisibleText(/^needs attention$/)
    await expect(widget.getByTestId("filing-attention-reason")).toBeVisibleText(
      /^US shipping address \(TX 78701, state typed "texas"\) but no tax was charged at checkout$/,
    )
    await shot(widget, "order-filing-needs-attention.png")
    const writes = (await countOf("createOrder")) + (await countOf("cartToOrder"))
    await widget.getByTestId("filing-requote").click()
    await expect(widget.getByTestId("filing-state")).toBeVisibleText(/^completed$/)
    await expect(widget.getByTestId("filing-requoted")).toBeVisibleText(/^TX 78701: collected \$0\.00, filed \$\d+\.\d\d$/)
    expect((await countOf("createOrder")) + (await countOf("cartToOrder"))).toBe(writes + 1)
    const filed = await service.getOrder(orderId)
    expect([filed.destination.state, filed.destination.zip]).toEqual(["TX", "78701"])
    await shot(widget, "order-filing-requoted.png")
    await page.setViewportSize({ width: 1440, height: 1000 })
  })

  it("order widget, tax-inclusive price: the line's net and the tax inside the shown price; tax charged = tax filed", async () => {
    const { orderId } = app.seeded.inclusive
    // the record: the line filed with its net (the shown $112 less the $4.85 inside it) and the tax charged
    const record = await adminGet(`/admin/sales-tax/filings/${orderId}`)
    expect(record.filing.snapshot.lines.map((l: { price: number; chargedTax: number }) => [l.price, l.chargedTax])).toEqual([
      [107.15, 4.85],
    ])
    await page.setViewportSize({ width: 1440, height: 1200 })
    await page.goto(`${app.adminUrl}/orders/${orderId}`)
    const widget = page.getByTestId("sales-tax-filing")
    await expect(widget.getByTestId("filing-state")).toBeVisibleText(/^completed$/)
    await expect(widget.getByText("Tax charged / filed").locator("xpath=..")).toBeVisibleText(/^Tax charged \/ filed\$4\.85 \/ \$4\.85$/)
    // Medusa's own summary of the same order: the line at its net, the tax inside the price, the shown total
    await page.getByText("Wool sweater", { exact: true }).first().waitFor()
    await expect(page.locator("body")).toBeVisibleText(
      /Wool sweater\s*\$112\.00\s*1x\s*\$107\.15.*Item Subtotal\s*\$107\.15.*Tax Total\s*\$4\.85\s*Order Total\s*\$112\.00/s,
    )
    await page.screenshot({ path: join(SHOTS, "order-filing-tax-inclusive.png"), animations: "disabled" })
    await page.setViewportSize({ width: 1440, height: 1000 })
  })

  // --- issue 30: a merchant's first hour, from the starter's Europe-only store (a self-contained step) ---
  it("setup checklist: from the starter's Europe-only store, its buttons lead to a store that quotes US tax and files a storefront order", async () => {
    // the start-up warning (failurePolicy fallback, nothing to fall back on) is the serving process's only
    const logOf = (name: string) => readFileSync(join(LOG_DIR, `${name}.log`), "utf8")
    expect(logOf("medusa-start")).toMatch(/no rate to fall back on/)
    for (const cli of ["db-migrate", "user", "seed"])
      expect([cli, logOf(cli)]).not.toEqual([cli, expect.stringMatching(/no rate to fall back on/)])

    await page.goto(`${app.adminUrl}/settings/sales-tax`)
    const setup = page.getByTestId("settings-setup")
    await expect(setup.getByTestId("setup-us_region")).toBeVisibleText(/No region holds the United States/)
    for (const [id, state] of [
      ["us_region", "todo"],
      ["us_tax_region", "todo"],
      ["us_location", "todo"],
      ["us_shipping", "todo"],
      ["us_stock", "todo"],
      ["us_tics", "todo"],
      ["connection", "done"],
    ])
      expect([id, await setup.getByTestId(`setup-${id}`).getAttribute("data-state")]).toEqual([id, state])
    await expect(setup.getByTestId("setup-help-us_shipping")).toBeVisibleText(/First give each sales channel a US stock location/)
    // the European warehouse ships to no US address: neutral, not a fallback alarm
    const eu = page.getByTestId("settings-locations").getByTestId(`location-${app.seeded.starter.stockLocationId}`)
    await expect(eu).toBeVisibleText(
      /European Warehouse.*not used for US orders.*not in the US \(country DK\); no service zone of it covers the US/,
    )
    await page.setViewportSize({ width: 1440, height: 1400 })
    await shot(setup, "setup-checklist-before.png")

    // each button, in the order the list offers them
    const clicks: [string, RegExp][] = [
      ["create_us_region", /^Create the United States region \(USD\)$/],
      ["create_us_tax_region", /^Create the US tax region on this provider \(tp_sales-tax_sales-tax\)$/],
      ["create_us_location", /^Create a US stock location at the origin address \(1 Market St, San Francisco, CA 94105\)$/],
      ["add_us_shipping", /^Offer Express Shipping, Standard Shipping to US addresses from US Warehouse$/],
    ]
    for (const [fix, label] of clicks) {
      const button = setup.getByTestId(`setup-fix-${fix}`)
      await expect(button).toBeVisibleText(label)
      await button.click()
      await button.waitFor({ state: "detached" })
    }
    await expect(setup.getByTestId("setup-items")).toBeVisibleText(/Ready|Tax region United States on tp_sales-tax_sales-tax/)
    // left: the merchant's choices (stock at the US Warehouse, the T-shirt's TIC), instructions and links, never "Ready"
    expect(await setup.getByTestId("setup-items").getAttribute("data-done")).toBe("false")
    for (const id of ["us_stock", "us_tics"])
      expect([id, await setup.getByTestId(`setup-${id}`).getAttribute("data-state")]).toEqual([id, "todo"])
    // the Wholesale channel has nothing published to it: it needs no US location
    await expect(setup.getByTestId("setup-detail-us_shipping")).toBeVisibleText(
      /^Default Sales Channel: Express Shipping, Standard Shipping$/,
    )
    await shot(setup, "setup-checklist-after.png")
    await page.setViewportSize({ width: 1440, height: 1000 })

    // a storefront checkout to a US address on the starter's publishable key: US tax quoted and the order filed
    const headers = { "x-publishable-api-key": app.seeded.starter.publishableKey, "content-type": "application/json" }
    const store = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(`${app.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
      const json = await r.json()
      if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json).slice(0, 400)}`)
      return json
    }
    const { regions } = await store("GET", "/store/regions")
    const us = regions.find((r: { countries: { iso_2: string }[] }) => r.countries.some((c) => c.iso_2 === "us"))
    const address = {
      first_name: "Ada",
      last_name: "Lovelace",
      address_1: "350 S 5th St",
      city: "Minneapolis",
      province: "MN",
      postal_code: "55415",
      country_code: "us",
    }
    const { cart } = await store("POST", "/store/carts", {
      region_id: us.id,
      email: "first@shopper.test",
      shipping_address: address,
      billing_address: address,
    })
    await store("POST", `/store/carts/${cart.id}/line-items`, { variant_id: app.seeded.starter.variantId, quantity: 2 })
    const { shipping_options } = await store("GET", `/store/shipping-options?cart_id=${cart.id}`)
    const standard = shipping_options.find((o: { name: string }) => o.name === "Standard Shipping")
    const { cart: quoted } = await store("POST", `/store/carts/${cart.id}/shipping-methods?fields=id,tax_total,total`, {
      option_id: standard.id,
    })
    const svc = await service.getCart(cart.id)
    const serviceTax = svc.lineItems.reduce((sum, l) => sum + Number(l.tax.amount), 0)
    expect(serviceTax).toBeGreaterThan(0)
    expect(Number(quoted.tax_total)).toBeCloseTo(serviceTax, 2)
    // shipped from the US Warehouse the checklist created at the origin address
    expect(svc.origin).toMatchObject({ line1: "1 Market St", city: "San Francisco", state: "CA", zip: "94105" })
    const { payment_collection } = await store("POST", "/store/payment-collections", { cart_id: cart.id })
    await store("POST", `/store/payment-collections/${payment_collection.id}/payment-sessions`, { provider_id: "pp_system_default" })
    const done = await store("POST", `/store/carts/${cart.id}/complete`)
    expect(done.type).toBe("order")
    // the record is made by the order.placed subscriber: 404 until then
    const filingOf = async () => {
      const r = await page.request.get(`${app.url}/admin/sales-tax/filings/${done.order.id}`)
      return r.status() === 404 ? { filing: null } : r.json()
    }
    let filing = await filingOf()
    for (let i = 0; i < 150 && !["filed", "completed"].includes(filing.filing?.state); i++) {
      await new Promise((r) => setTimeout(r, 200))
      filing = await filingOf()
    }
    expect(["filed", "completed"]).toContain(filing.filing.state)
    const filed = await service.getOrder(done.order.id)
    expect(filed.lineItems.reduce((sum, l) => sum + Number(l.tax.amount), 0)).toBeCloseTo(serviceTax, 2)
  })

  it("settings page: connection health and ping, options with the key redacted, TIC coverage", async () => {
    await page.goto(`${app.adminUrl}/settings/sales-tax`)
    const root = page.getByTestId("sales-tax-settings")
    await expect(root.getByTestId("settings-ping")).toBeVisibleText(/valid/)
    await expect(root.getByTestId("option-apiKey")).toBeVisibleText(/^\*+$/)
    expect(await page.content()).not.toContain(SANDBOX_KEY)
    expect(await page.content()).not.toMatch(/postgres(ql)?:\/\//)
    const coverage = await adminGet("/admin/sales-tax/settings")
    // the test's product, the starter's T-shirt (issue 30's setup step) and its sweatpants
    expect(coverage.coverage.totalProducts).toBe(3)
    await expect(root.getByTestId("coverage-product_type")).toBeVisibleText(/1/)
    // the settings layout scrolls inside its own container: a tall viewport shows the whole page
    await page.setViewportSize({ width: 1440, height: 1700 })
    await root.getByTestId("settings-failures").waitFor()
    await page.screenshot({ path: join(SHOTS, "settings.png"), animations: "disabled" })
    await page.setViewportSize({ width: 1440, height: 1000 })
  })

  // --- issue 16: connections per sales channel, ship-from locations (a self-contained step) ---
  it("settings page: the connections with their sales channels, keys as ****, Test connection per connection; the ship-from locations with the origin each uses", async () => {
    // two stock locations through the admin API: one with a complete US address, one without a ZIP (falls back)
    const mk = async (name: string, address: Record<string, string>) => {
      const r = await page.request.post(`${app.url}/admin/stock-locations`, { data: { name, address } })
      expect(r.status()).toBe(200)
      return (await r.json()).stock_location.id as string
    }
    const austin = await mk("Austin warehouse", {
      address_1: "500 Congress Ave",
      city: "Austin",
      country_code: "us",
      province: "TX",
      postal_code: "78701",
    })
    const noZip = await mk("Pop-up store", { address_1: "1 Pike Pl", city: "Seattle", country_code: "us", province: "WA" })
    await page.goto(`${app.adminUrl}/settings/sales-tax`)
    const section = page.getByTestId("settings-connections")
    const second = section.getByTestId(`connection-${SECOND_CONNECTION.connectionId}`)
    await expect(second).toBeVisibleText(/\*\*\*\*/)
    await expect(section.getByTestId(`connection-channels-${SECOND_CONNECTION.connectionId}`)).toBeVisibleText(/Wholesale/)
    await expect(section.getByTestId(`connection-${SANDBOX_CONNECTION}`)).toBeVisibleText(/default/)
    await section.getByTestId(`connection-test-${SECOND_CONNECTION.connectionId}`).click()
    await expect(section.getByTestId(`connection-result-${SECOND_CONNECTION.connectionId}`)).toBeVisibleText(/valid.*pong/)
    await section.getByTestId(`connection-test-${SANDBOX_CONNECTION}`).click()
    await expect(section.getByTestId(`connection-result-${SANDBOX_CONNECTION}`)).toBeVisibleText(/valid/)
    const locations = page.getByTestId("settings-locations")
    await expect(locations.getByTestId(`location-${austin}`)).toBeVisibleText(/own address.*500 Congress Ave, Austin, TX 78701/)
    await expect(locations.getByTestId(`location-reason-${noZip}`)).toBeVisibleText(/no postal code/)
    await expect(locations.getByTestId(`location-${noZip}`)).toBeVisibleText(/fallback origin.*1 Market St/)
    const html = await page.content()
    for (const key of [SANDBOX_KEY, SECOND_CONNECTION.apiKey]) expect(html).not.toContain(key)
    await page.setViewportSize({ width: 1440, height: 1400 })
    await section.scrollIntoViewIfNeeded()
    await shot(section, "settings-connections.png")
    await shot(locations, "settings-locations.png")
    await page.setViewportSize({ width: 1440, height: 1000 })
  })

  it("nexus page: every state with its period, threshold and share, ordered by what needs action; Mark registered", async () => {
    const { nexus } = await adminGet("/admin/sales-tax/nexus")
    expect(nexus.rows).toHaveLength(51)
    await page.setViewportSize({ width: 1440, height: 1400 })
    await page.goto(`${app.adminUrl}/settings/sales-tax/nexus`)
    const root = page.getByTestId("nexus-page")
    await expect(root.getByTestId("nexus-as-of")).toBeVisibleText(new RegExp(`Thresholds as of ${nexus.asOf}`))
    // the page lists the route's rows in the route's order
    const first = root.locator('[data-testid^="nexus-row-"]').first()
    expect(await first.getAttribute("data-testid")).toBe(`nexus-row-${nexus.rows[0].state}`)
    const wa = nexus.rows.find((r: { state: string }) => r.state === "WA")
    await expect(root.getByTestId("nexus-share-WA")).toBeVisibleText(new RegExp(`^${Math.floor(wa.share * 100)} %$`))
    await root.getByTestId("nexus-register-WA").click()
    await expect(root.getByTestId("nexus-register-WA")).toBeVisibleText(/^Registered ✓$/)
    await expect(root.getByTestId("nexus-row-WA").getByText("Registered", { exact: true })).toBeVisibleText(/^Registered$/)
    // the page's top: the heading, the table's date and the first rows (the rest is the same shape)
    await page.evaluate(() => window.scrollTo(0, 0))
    await root.getByTestId("nexus-as-of").scrollIntoViewIfNeeded()
    await page.screenshot({ path: join(SHOTS, "nexus.png"), animations: "disabled" })
    await root.getByTestId("nexus-register-WA").click()
    await expect(root.getByTestId("nexus-register-WA")).toBeVisibleText(/^Mark registered$/)
    await page.setViewportSize({ width: 1440, height: 1000 })
  })

  it("TICs page: export, an import's dry run with a refused line, the valid lines applied with progress", async () => {
    const csv = await (await page.request.get(`${app.url}/admin/sales-tax/tics/export`)).text()
    const [header, firstLine] = csv.split("\r\n")
    expect(header).toBe("id,handle,title,product_type,categories,tic,resolved_tic,resolved_from")
    const productId = firstLine!.split(",")[0]!
    await page.goto(`${app.adminUrl}/settings/sales-tax/tics`)
    const root = page.getByTestId("tics-page")
    const file = ["target,id,handle,tic", `product,${productId},,40030`, "product,,no-such-product,20010"].join("\n")
    await root.getByTestId("tics-import-file").setInputFiles({ name: "tics.csv", mimeType: "text/csv", buffer: Buffer.from(file) })
    const preview = root.getByTestId("tics-preview")
    await expect(preview.getByTestId("tics-preview-changes")).toBeVisibleText(/^1 to change$/)
    await expect(preview.getByTestId("tics-preview-refused")).toBeVisibleText(/^1 refused$/)
    await expect(preview.getByTestId("tics-refused")).toBeVisibleText(/3\s*handle\s*no product with handle "no-such-product"/)
    expect(await preview.getByTestId("tics-apply").isDisabled()).toBe(true)
    await preview.getByTestId("tics-apply-valid").click()
    await expect(preview.getByTestId("tics-progress")).toBeVisibleText(/^1 of 1 applied$/)
    await shot(root, "tics-import.png")
    const after = await (await page.request.get(`${app.url}/admin/sales-tax/tics/export`)).text()
    expect(after).toContain(`${productId},`)
    expect(after.split("\r\n").find((l) => l.startsWith(productId))).toMatch(/,40030,40030,product$/)
  })

  it("unclassified products: the starter's sweatpants suggested as clothing; accept all above the threshold; a New York order of them is then charged and filed $0.00 tax", async () => {
    const { productId, variantId } = app.seeded.sweatpants
    await page.goto(`${app.adminUrl}/settings/sales-tax/tics`)
    const root = page.getByTestId("tics-unclassified")
    const row = root.getByTestId(`tics-unclassified-${productId}`)
    await expect(row).toBeVisibleText(/^Medusa Sweatpants\s*20010 · Clothing\s*high 0\.\d\d/)
    expect(await root.getByRole("spinbutton").inputValue()).toBe("0.7")
    await shot(root, "tics-unclassified.png")
    await root.getByTestId("tics-accept-all").click()
    await expect(root.getByTestId("tics-unclassified-progress")).toBeVisibleText(/^(\d+) of \1 applied$/)
    await row.waitFor({ state: "detached" })
    expect((await adminGet(`/admin/sales-tax/tics/product/${productId}`)).assigned.ticId).toBe(20010)

    // a storefront order to New York City (clothing under $110: exempt from the state's and the city's tax)
    const headers = { "x-publishable-api-key": app.seeded.starter.publishableKey, "content-type": "application/json" }
    const store = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(`${app.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
      const json = await r.json()
      if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json).slice(0, 400)}`)
      return json
    }
    const { regions } = await store("GET", "/store/regions")
    const us = regions.find((r: { countries: { iso_2: string }[] }) => r.countries.some((c) => c.iso_2 === "us"))
    const address = {
      first_name: "Ada",
      last_name: "Lovelace",
      address_1: "350 5th Ave",
      city: "New York",
      province: "NY",
      postal_code: "10118",
      country_code: "us",
    }
    const { cart } = await store("POST", "/store/carts", {
      region_id: us.id,
      email: "ny@shopper.test",
      shipping_address: address,
      billing_address: address,
    })
    await store("POST", `/store/carts/${cart.id}/line-items`, { variant_id: variantId, quantity: 1 })
    const { shipping_options } = await store("GET", `/store/shipping-options?cart_id=${cart.id}`)
    const standard = shipping_options.find((o: { name: string }) => o.name === "Standard Shipping")
    const { cart: quoted } = await store("POST", `/store/carts/${cart.id}/shipping-methods?fields=id,item_total,item_tax_total,*items`, {
      option_id: standard.id,
    })
    // charged at checkout: the one item $15, no tax on it
    expect([quoted.items.length, Number(quoted.item_total), Number(quoted.item_tax_total)]).toEqual([1, 15, 0])
    // the service's quote: the item's line on the clothing TIC, $15, no tax (shipping is its own line)
    const itemLines = (lines: { tic: number | null; price: number; tax: { amount: number } }[]) =>
      lines.filter((l) => l.tic === 20010).map((l) => [l.price, Number(l.tax.amount)])
    expect(itemLines((await service.getCart(cart.id)).lineItems)).toEqual([[15, 0]])
    const { payment_collection } = await store("POST", "/store/payment-collections", { cart_id: cart.id })
    await store("POST", `/store/payment-collections/${payment_collection.id}/payment-sessions`, { provider_id: "pp_system_default" })
    const done = await store("POST", `/store/carts/${cart.id}/complete`)
    expect(done.type).toBe("order")
    const filingOf = async () => {
      const r = await page.request.get(`${app.url}/admin/sales-tax/filings/${done.order.id}`)
      return r.status() === 404 ? { filing: null } : r.json()
    }
    let filing = await filingOf()
    for (let i = 0; i < 150 && !["filed", "completed"].includes(filing.filing?.state); i++) {
      await new Promise((r) => setTimeout(r, 200))
      filing = await filingOf()
    }
    expect(["filed", "completed"]).toContain(filing.filing.state)
    // charged: the order's item; filed: the service's line of that item
    const { order } = await adminGet(`/admin/orders/${done.order.id}`)
    expect([order.items.map((i: { product_id: string }) => i.product_id), Number(order.item_total), Number(order.item_tax_total)]).toEqual([
      [productId],
      15,
      0,
    ])
    expect(itemLines((await service.getOrder(done.order.id)).lineItems)).toEqual([[15, 0]])
  })

  async function countOf(op: string): Promise<number> {
    const r = await fetch(`${app.sandbox.url}/_sandbox/counts`, { headers: { "x-api-key": SANDBOX_KEY } })
    return ((await r.json()) as { counts: Record<string, number> }).counts[op] ?? 0
  }
})

// A small matcher: waits until the locator is visible and its text matches.
expect.extend({
  async toBeVisibleText(received: Locator, re: RegExp, timeout = UI_TIMEOUT) {
    const deadline = Date.now() + timeout
    let last = ""
    while (Date.now() < deadline) {
      try {
        if (await received.isVisible()) {
          last = ((await received.textContent()) ?? "").trim()
          if (re.test(last)) return { pass: true, message: () => `text ${JSON.stringify(last)} matches ${re}` }
        }
      } catch {
        /* detached while re-rendering */
      }
      await new Promise((r) => setTimeout(r, 200))
    }
    return { pass: false, message: () => `expected text matching ${re}, last seen ${JSON.stringify(last)}` }
  },
})

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    interface Matchers<R> {
      toBeVisibleText(re: RegExp, timeout?: number): Promise<R>
    }
  }
}
