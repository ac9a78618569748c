/** Contract: Medusa converts a draft order on the route the plugin guards, through a workflow with no hook. */
import { convertDraftOrderWorkflow } from "@medusajs/core-flows"
import { installedSource } from "./installed"
import { DRAFT_ORDER_CONVERT_ROUTE, DRAFT_ORDER_CONVERT_ROUTE_FILE } from "./draft-order-convert-route"
import middlewares from "../api/middlewares"

describe("contract: POST /admin/draft-orders/:id/convert-to-order", () => {
  it("the installed @medusajs/medusa serves it with convertDraftOrderWorkflow, and the guard is mounted on it", () => {
    const route = installedSource("@medusajs/medusa", DRAFT_ORDER_CONVERT_ROUTE_FILE)!
    expect(route).toMatch(/exports\.POST = POST/)
    expect(route).toMatch(/convertDraftOrderWorkflow\)\(req\.scope\)\.run\(/)
    expect(middlewares.routes?.filter((r) => r.matcher === DRAFT_ORDER_CONVERT_ROUTE)).toEqual([
      expect.objectContaining({ matcher: DRAFT_ORDER_CONVERT_ROUTE, methods: ["POST"] }),
    ])
  })

  it("convertDraftOrderWorkflow has no hook (when it gains one, the guard belongs there)", () => {
    expect(Object.keys(convertDraftOrderWorkflow.hooks)).toEqual([])
  })
})
