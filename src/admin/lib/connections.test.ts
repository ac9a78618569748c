import type { ConnectionView } from "../../setup/routes"
import { connectionLabel, connectionQuery } from "./certificate-form"

const conn = (over: Partial<ConnectionView>): ConnectionView => ({
  connectionId: "11111111-2222-4333-8444-555555555555",
  apiKey: "****",
  isDefault: false,
  salesChannels: [],
  ...over,
})

describe("the certificates widget's connection selector", () => {
  it("connectionQuery: the chosen connection as ?connection_id=, encoded; none for the default", () => {
    expect(connectionQuery(null)).toBe("")
    expect(connectionQuery("a b&c")).toBe("?connection_id=a%20b%26c")
  })

  it("connectionLabel: the sales channels' names (ids when unnamed); the default says so; else the connection id", () => {
    const channels = [
      { id: "sc_1", name: "Web", exists: true },
      { id: "sc_2", name: null, exists: true },
    ]
    expect(connectionLabel(conn({ salesChannels: channels }))).toBe("Web, sc_2")
    expect(connectionLabel(conn({ isDefault: true, salesChannels: channels }))).toBe("Default connection (Web, sc_2)")
    expect(connectionLabel(conn({ isDefault: true }))).toBe("Default connection")
    expect(connectionLabel(conn({}))).toBe("11111111-2222-4333-8444-555555555555")
  })
})
