import { resolvePluginOptions, unknownSalesChannelsWarning } from "../options"
import {
  allApiKeys,
  allConnections,
  connectionById,
  connectionForChannel,
  optionsForChannel,
  optionsForConnection,
  UnknownConnectionError,
} from "./connections"

const A = "00000000-0000-4000-8000-000000000000"
const B = "11111111-2222-4333-8444-555555555555"
const C = "99999999-2222-4333-8444-555555555555"
const base = {
  connectionId: A,
  apiKey: "key-A-SECRET",
  baseUrl: "https://api.example.com",
  origin: { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" },
}

function problems(raw: unknown): string[] {
  try {
    resolvePluginOptions(raw)
  } catch (e) {
    return (e as { problems: string[] }).problems
  }
  return []
}

describe("option connections", () => {
  const o = resolvePluginOptions({
    ...base,
    connections: [
      { salesChannelIds: ["sc_b1", "sc_b2"], connectionId: B, apiKey: "key-B-SECRET" },
      { salesChannelIds: ["sc_c"], connectionId: C, apiKey: "key-C-SECRET" },
    ],
  })

  it("defaults to none", () => {
    expect(resolvePluginOptions(base).connections).toEqual([])
  })

  it("routes a sales channel to its connection, anything else to the default", () => {
    expect(connectionForChannel(o, "sc_b2")).toMatchObject({ connectionId: B, apiKey: "key-B-SECRET", isDefault: false })
    expect(connectionForChannel(o, "sc_c").connectionId).toBe(C)
    expect(connectionForChannel(o, "sc_other")).toMatchObject({ connectionId: A, apiKey: "key-A-SECRET", isDefault: true })
    expect(connectionForChannel(o, null).connectionId).toBe(A)
    expect(optionsForChannel(o, "sc_b1")).toMatchObject({
      connectionId: B,
      apiKey: "key-B-SECRET",
      baseUrl: base.baseUrl,
      origin: base.origin,
    })
    // the default channel gets the options object itself
    expect(optionsForChannel(o, "sc_other")).toBe(o)
  })

  it("finds a connection by id; an id the options no longer have is an error, never the default", () => {
    expect(connectionById(o, B)?.apiKey).toBe("key-B-SECRET")
    expect(connectionById(o, null)?.connectionId).toBe(A)
    expect(connectionById(o, "nope")).toBeUndefined()
    expect(optionsForConnection(o, C).apiKey).toBe("key-C-SECRET")
    expect(() => optionsForConnection(o, "gone-connection")).toThrow(UnknownConnectionError)
    expect(allConnections(o).map((c) => c.connectionId)).toEqual([A, B, C])
    expect(allApiKeys(o)).toEqual(["key-A-SECRET", "key-B-SECRET", "key-C-SECRET"])
  })

  it("refuses a duplicate channel, a short or repeated connection id, with located messages and no key", () => {
    const p = problems({
      ...base,
      connections: [
        { salesChannelIds: ["sc_1", "sc_2"], connectionId: B, apiKey: "key-B-SECRET" },
        { salesChannelIds: ["sc_2"], connectionId: "short", apiKey: "key-X-SECRET" },
        { salesChannelIds: ["sc_3"], connectionId: A, apiKey: "key-Y-SECRET" },
        { salesChannelIds: [], connectionId: C, apiKey: "" },
      ],
    })
    expect(p).toEqual(
      expect.arrayContaining([
        "connections[1].connectionId: connectionId must be at least 36 characters",
        "connections[3].salesChannelIds: salesChannelIds must name at least one sales channel",
        "connections[3].apiKey: apiKey must not be empty",
      ]),
    )
    // the cross checks run once each field is valid
    const q = problems({
      ...base,
      connections: [
        { salesChannelIds: ["sc_1", "sc_2"], connectionId: B, apiKey: "key-B-SECRET" },
        { salesChannelIds: ["sc_2"], connectionId: C, apiKey: "key-X-SECRET" },
        { salesChannelIds: ["sc_3"], connectionId: A, apiKey: "key-Y-SECRET" },
      ],
    })
    expect(q).toEqual([
      "connections[1].salesChannelIds[0]: sales channel sc_2 is already on connections[0] (a sales channel uses one connection)",
      `connections[2].connectionId: connection ${A} is already configured at connectionId`,
    ])
    expect(JSON.stringify([p, q])).not.toMatch(/SECRET/)
  })

  it("names the configured sales channels that do not exist (the boot warning)", () => {
    const warning = unknownSalesChannelsWarning(o, new Set(["sc_b1", "sc_c"]))
    expect(warning).toMatch(/do not exist: connections\[0\]\.salesChannelIds\[1\] = sc_b2 \(their carts/)
    expect(unknownSalesChannelsWarning(o, new Set(["sc_b1", "sc_b2", "sc_c"]))).toBeNull()
  })
})
