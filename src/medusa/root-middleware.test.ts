/**
 * Contract: a root middleware runs before Medusa's own route middlewares (the installed router's
 * sorter) and sees every answer through `res.json`, Medusa's error handler's included (a real Express app).
 */
import express from "express"
import type { AddressInfo } from "node:net"
import { errorHandler, type MedusaResponse } from "@medusajs/framework/http"
import { rootMatcher, rootMiddleware, rootMiddlewareDifferences, sortedMatchers, throughEveryAnswer } from "./root-middleware"

/** A sorter as Medusa's before it kept a matcher without segments ("/" dropped), otherwise the installed order. */
const dropsRoot = (m: string[]) => sortedMatchers(m.filter((x) => x.split("/").some(Boolean)))

/** GETs `path` on an Express app with `matcher` → a guard that tags every answer, a route, and Medusa's error handler. */
async function answer(matcher: string, path: string): Promise<{ status: number; body: unknown }> {
  const app = express()
  app.use(matcher, (req, res, next) => {
    throughEveryAnswer(res as unknown as MedusaResponse, (body, json) => json({ seen: req.originalUrl, body }))
    next()
  })
  app.get("/store/sales-tax/ok", (_req, res) => void res.json({ ok: true }))
  app.get("/store/sales-tax/fail", () => {
    throw new Error("boom")
  })
  app.use(errorHandler() as unknown as express.ErrorRequestHandler)
  const server = app.listen(0, "127.0.0.1")
  await new Promise((r) => server.once("listening", r))
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`)
    return { status: res.status, body: await res.json() }
  } finally {
    await new Promise((r) => server.close(r))
  }
}

describe("contract: a root middleware, first, seeing every answer", () => {
  it("the installed router registers the root matcher before Medusa's wildcard and route middlewares; the error handler answers through res.json", () => {
    expect(rootMiddlewareDifferences()).toEqual([])
    expect(rootMatcher()).toBe("/")
    expect(sortedMatchers(["/store/*", "/admin/sales-tax/filings/:id", "/admin/*", "/"])?.[0]).toBe("/")
  })

  it("a sorter that drops '/' (older minors) gets '*', which it keeps first; a sorter that keeps neither first is named", () => {
    expect(dropsRoot(["/admin/*", "/"])).toEqual(["/admin/*"])
    expect(rootMatcher(dropsRoot)).toBe("*")
    expect(rootMiddlewareDifferences(dropsRoot)).toEqual([])
    expect(rootMiddleware(() => undefined).matcher).toBe("/")
    expect(rootMiddlewareDifferences((m) => [...m.slice(1), m[0]!], "res.send(body)")).toEqual([
      "Medusa's router no longer registers a root middleware first",
      "Medusa's error handler no longer answers through res.json",
    ])
    expect(rootMiddlewareDifferences(() => undefined)).toEqual(["Medusa's router no longer registers a root middleware first"])
  })

  it.each(["/", "*"])("at %s: the guard sees the whole path, a route's answer and Medusa's error answer", async (matcher) => {
    expect(await answer(matcher, "/store/sales-tax/ok?x=1")).toEqual({
      status: 200,
      body: { seen: "/store/sales-tax/ok?x=1", body: { ok: true } },
    })
    const failed = await answer(matcher, "/store/sales-tax/fail")
    expect(failed).toEqual({
      status: 500,
      body: {
        seen: "/store/sales-tax/fail",
        body: { code: "unknown_error", type: "unknown_error", message: "An unknown error occurred." },
      },
    })
  })

  it("throughEveryAnswer wraps a response once", () => {
    const sent: unknown[] = []
    const res = { json: (b: unknown) => (sent.push(b), res) } as unknown as MedusaResponse
    throughEveryAnswer(res, (b, json) => json({ one: b }))
    throughEveryAnswer(res, (b, json) => json({ two: b }))
    res.json(1)
    res.json(2)
    expect(sent).toEqual([{ one: 1 }, { one: 2 }])
  })
})
