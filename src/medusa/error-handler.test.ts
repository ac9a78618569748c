/**
 * Contract: what the plugin's replacement of the app's error handler assumes of Medusa, on a real
 * Express app (Medusa's own) with Medusa's own errorHandler.
 */
import express from "express"
import type { AddressInfo } from "node:net"
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { errorHandler } from "@medusajs/framework/http"
import { answerPluginRouteError } from "../http/input-guard"
import { errorHandlerRoutingDifferences, medusaErrorHandlerWith } from "./error-handler"

type Handler = (err: unknown, req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) => void

/** An Express app with a plugin route and one of Medusa's, a 1 kB JSON body limit, and `handler` as its error handler; returns the answer to GET `path` (POST with `body`). */
async function answer(handler: Handler, path: string, body?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const app = express()
  const quiet = { error: () => undefined, info: () => undefined, warn: () => undefined }
  app.use((req, _res, next) => {
    ;(req as unknown as { scope: unknown }).scope = { resolve: () => quiet }
    next()
  })
  app.use(express.json({ limit: "1kb" }))
  app.all(["/admin/sales-tax/filings/:id", "/admin/orders/:id"], (_req, res) => {
    res.json({ ok: true })
  })
  app.use(handler as unknown as express.ErrorRequestHandler)
  const server = app.listen(0, "127.0.0.1")
  await new Promise((r) => server.once("listening", r))
  try {
    const { port } = server.address() as AddressInfo
    const res = await fetch(
      `http://127.0.0.1:${port}${path}`,
      body ? { method: "POST", headers: { "content-type": "application/json" }, body } : {},
    )
    return { status: res.status, body: (await res.json()) as Record<string, unknown> }
  } finally {
    await new Promise((r) => server.close(r))
  }
}

describe("contract: the app's error handler, replaced", () => {
  it("Medusa's router uses a middlewares file's errorHandler instead of its own", () => {
    expect(errorHandlerRoutingDifferences()).toEqual([])
    expect(errorHandlerRoutingDifferences("app.use(errorHandler())", "")).toEqual([
      "Medusa's router no longer uses a middlewares file's errorHandler",
      "Medusa's middleware loader no longer reads errorHandler",
    ])
  })

  it("why it exists: Medusa's own handler answers Express's undecodable path parameter with 500", async () => {
    const r = await answer(errorHandler() as unknown as Handler, "/admin/sales-tax/filings/%E0%A4%A")
    expect(r).toEqual({
      status: 500,
      body: { code: "unknown_error", type: "unknown_error", message: "An unknown error occurred." },
    })
  })

  it("the plugin's handler answers that 400 with a located error on the plugin's routes, and leaves every other path to Medusa", async () => {
    const handler = medusaErrorHandlerWith(answerPluginRouteError) as unknown as Handler
    const ours = await answer(handler, "/admin/sales-tax/filings/%E0%A4%A")
    expect(ours.status).toBe(400)
    expect(ours.body).toEqual({
      type: "invalid_data",
      message: "Invalid request: path: is not valid percent-encoding",
      errors: [{ location: "path", message: "is not valid percent-encoding", value: "%E0%A4%A" }],
    })
    const theirs = await answer(handler, "/admin/orders/%E0%A4%A")
    expect(theirs.status).toBe(500)
    expect((await answer(handler, "/admin/sales-tax/filings/order_1")).status).toBe(200)
  })

  it("the body parser's refusals on the plugin's routes: 413 and 400 as Medusa 2.21 answers them, whatever Medusa's handler does (2.15.5's: 500)", async () => {
    const medusa215: Handler = (err, req, res, _next) => {
      if (!answerPluginRouteError(err, req, res)) res.status(500).json({ type: "unknown_error" })
    }
    const big = JSON.stringify({ q: "x".repeat(2000) })
    expect(await answer(medusa215, "/admin/sales-tax/filings/order_1", big)).toEqual({
      status: 413,
      body: { type: "unknown_error", message: "request entity too large" },
    })
    const malformed = await answer(medusa215, "/admin/sales-tax/filings/order_1", '{"q":')
    expect([malformed.status, malformed.body.type]).toEqual([400, "invalid_data"])
    expect((await answer(medusa215, "/admin/orders/order_1", big)).status).toBe(500)
    expect((await answer(medusa215, "/admin/sales-tax/filings/order_1", '{"q":1}')).status).toBe(200)
  })
})
