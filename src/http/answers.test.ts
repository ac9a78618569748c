import { scrubServiceText } from "./answers"

const o = { connectionId: "11111111-2222-4333-8444-555555555555", baseUrl: "http://127.0.0.1:4010", apiKey: "sk_secret_key" }

describe("scrubServiceText: what an admin may see of a service error", () => {
  it("removes the connection id, the base URL, the service's paths and the key", () => {
    expect(scrubServiceText(`getCertificate: 404 Not Found - no route GET /tax/connections/${o.connectionId}/`, o)).toBe(
      "getCertificate: 404 Not Found - no route GET [service path]",
    )
    expect(scrubServiceText(`connect ECONNREFUSED at ${o.baseUrl}/tax/health with sk_secret_key`, o)).toBe(
      "connect ECONNREFUSED at [service][service path] with [redacted]",
    )
    expect(scrubServiceText(`connection ${o.connectionId} refused`, o)).toBe("connection [connection] refused")
    expect(scrubServiceText("order order_1 not found", o)).toBe("order order_1 not found")
  })
})
