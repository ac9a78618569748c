import { z } from "zod"
import { Address, locate } from "../packages/contract/src/index"
import { DEFAULT_SHIPPING_TIC, DEFAULT_TIC } from "./constants"
import { runtimeSlot, type ScopeLike } from "./runtime"

/** How a state measures its nexus period (UTC windows: src/nexus/periods.ts). */
export const PERIOD_KINDS = [
  "previous_or_current_year", // the previous or the current calendar year (either one crossing counts)
  "previous_year", // the previous calendar year only
  "trailing_12_months", // the twelve months up to today
  "four_quarters", // the four completed calendar quarters before the current one
  "twelve_months_to_sept_30", // the twelve months ending on the last September 30 (Connecticut)
] as const
export type PeriodKind = (typeof PERIOD_KINDS)[number]

/** A whole number (of `unit`) from `min` (to `max`), each refusal naming the option. */
function wholeNumber(name: string, min: number, max?: number, unit = "") {
  const n = z.number().int(`${name} must be a whole number${unit}`).min(min, `${name} must be at least ${min}`)
  return max === undefined ? n : n.max(max, `${name} must be at most ${max}`)
}
const percentage = (error: string) => z.number().min(0, error).max(100, error)

const StateCode = z.string().regex(/^[A-Z]{2}$/, "a two-letter US state code in capitals (TX)")

/** A state's economic nexus threshold, as the shipped table holds it (src/nexus/thresholds.ts) and an override changes it. */
const NexusThresholdSchema = z
  .object({
    /** dollars; null: no state-level sales tax */
    sales: z.number().positive("nexus.thresholds.*.sales is a positive dollar amount").nullable().optional(),
    /** orders; null: sales only */
    transactions: z.number().int().positive("nexus.thresholds.*.transactions is a positive integer").nullable().optional(),
    /** "and": both tests must cross */
    combine: z.enum(["or", "and"]).optional(),
    period: z.enum(PERIOD_KINDS).optional(),
    netsReturns: z.boolean().optional(),
    source: z.string().max(200).optional(),
  })
  .strict()
export type NexusThreshold = z.infer<typeof NexusThresholdSchema>

/** Option `nexus`: registered states (besides the admin's), threshold overrides, and whether crossings are logged. */
export const NexusOptionsSchema = z
  .object({
    registered: z.array(StateCode).default([]),
    thresholds: z.record(StateCode, NexusThresholdSchema).default({}),
    warnings: z.boolean({ error: "nexus.warnings must be true or false" }).default(true),
  })
  .prefault({})

const ConnectionId = z
  .string({ error: "connectionId is required (the service connection id, at least 36 characters)" })
  .min(36, "connectionId must be at least 36 characters")
const ApiKey = z.string({ error: "apiKey is required" }).min(1, "apiKey must not be empty")

/** A further connection: the sales channels quoted, filed, refunded and voided on it instead of the default one. */
export const ConnectionOptionSchema = z.object({
  salesChannelIds: z
    .array(z.string().min(1, "a sales channel id must not be empty"), { error: "salesChannelIds must be a list of sales channel ids" })
    .min(1, "salesChannelIds must name at least one sales channel"),
  connectionId: ConnectionId,
  apiKey: ApiKey,
})

const FallbackRateState = z.string().regex(/^[A-Z]{2}$/, "fallbackRates keys are two-letter US state codes in capitals (TX)")
const ProxyHops = z.number().int("trustProxy must be false or a whole number of proxy hops").min(0).max(16)

/** Options of the plugin AND the tax provider (docs/provider.md); a bad one stops Medusa at boot, named. */
export const PluginOptionsSchema = z
  .object({
    connectionId: ConnectionId,
    apiKey: ApiKey,
    baseUrl: z
      .url({ error: "baseUrl must be an absolute http(s) URL such as https://api.example.com" })
      .refine((u) => /^https?:\/\//i.test(u), { error: "baseUrl must start with http:// or https://" })
      .transform((u) => u.replace(/\/+$/, "")),
    origin: Address,
    defaultTic: z.number().int().nonnegative("defaultTic must be a non-negative integer TIC").default(DEFAULT_TIC),
    shippingTic: z.number().int().nonnegative("shippingTic must be a non-negative integer TIC").default(DEFAULT_SHIPPING_TIC),
    failurePolicy: z.enum(["block", "fallback"], { error: 'failurePolicy must be "block" or "fallback"' }).default("fallback"),
    /** Percentage (7.25 = 7.25 %) used under failurePolicy "fallback" instead of the region's rates. */
    fallbackRate: percentage("fallbackRate is a percentage between 0 and 100").optional(),
    /** Per-state percentages ({ TX: 8.25 }) used under "fallback" when no last-known rate exists; before `fallbackRate`. */
    fallbackRates: z.record(FallbackRateState, percentage("fallbackRates values are percentages between 0 and 100")).optional(),
    timeoutMs: z.number().int().positive("timeoutMs must be a positive integer (milliseconds)").default(3000),
    backgroundTimeoutMs: z.number().int().positive("backgroundTimeoutMs must be a positive integer (milliseconds)").default(20000),
    cacheTtlSeconds: z.number().int().nonnegative("cacheTtlSeconds must be 0 (no cache) or more").default(300),
    completionMode: z
      .enum(["placed", "captured", "fulfilled"], { error: 'completionMode must be "placed", "captured" or "fulfilled"' })
      .default("placed"),
    filing: z
      .object({
        maxAttempts: wholeNumber("filing.maxAttempts", 1).default(8),
        /** Days a filing record keeps the destination's street lines (a quarter and its return's due date). */
        addressRetentionDays: wholeNumber("filing.addressRetentionDays", 1, 3650, " of days").default(120),
      })
      .loose()
      .prefault({}),
    /** Refunds without a return: "ignore" lists them as not filed (a button files one); "credit" files each at once. */
    manualRefunds: z.enum(["ignore", "credit"], { error: 'manualRefunds must be "ignore" or "credit"' }).default("ignore"),
    /** The lost-event sweep: how often it runs (minutes, across all instances) and how far back it looks (days). */
    sweep: z
      .object({
        everyMinutes: wholeNumber("sweep.everyMinutes", 1, 1440).default(15),
        days: wholeNumber("sweep.days", 1, 366).default(35),
      })
      .prefault({}),
    /** POST /store/sales-tax/verify-address: requests a minute per client and per cart (429 beyond). */
    verifyAddressRateLimit: wholeNumber("verifyAddressRateLimit", 1, undefined, " of requests a minute").default(20),
    /** The same without a `cart_id`: one budget for ALL such requests (per instance); default `verifyAddressRateLimit`. */
    verifyAddressAnonymousRateLimit: wholeNumber("verifyAddressAnonymousRateLimit", 1, undefined, " of requests a minute").optional(),
    /**
     * Proxy hops to trust for the rate limits' client address: false = the TCP peer, X-Forwarded-For ignored; n = the address
     * the n-th proxy from Medusa saw (Medusa's `req.ip` always trusts one hop).
     */
    trustProxy: z
      .union([z.literal(false), ProxyHops], { error: "trustProxy must be false or a whole number of proxy hops (0-16)" })
      .default(false),
    /** The service-call log (Settings → Sales Tax → Activity); bodies (customer addresses) only with `bodies`. */
    log: z
      .object({
        enabled: z.boolean({ error: "log.enabled must be true or false" }).default(true),
        bodies: z.boolean({ error: "log.bodies must be true or false" }).default(false),
        retentionDays: wholeNumber("log.retentionDays", 1, 3650, " of days").default(14),
      })
      .prefault({}),
    /** Checkout circuit breaker: after `failures` failures in a row, no calls for `halfOpenAfterMs`, then one probe. */
    circuitBreaker: z
      .object({
        failures: z.number().int().min(1).default(5),
        halfOpenAfterMs: z.number().int().min(100).default(30000),
      })
      .prefault({}),
    /** Storefront certificates: "review" (pending until staff approve), "immediate" (approved as submitted), "off" (403). */
    shopperCertificates: z
      .enum(["review", "immediate", "off"], { error: 'shopperCertificates must be "review", "immediate" or "off"' })
      .default("review"),
    /** Certificates the plugin did not make: "exempt" trusts them, "review" waits for staff (default: externalCertificatesMode). */
    externalCertificates: z.enum(["exempt", "review"], { error: 'externalCertificates must be "exempt" or "review"' }).optional(),
    /** Further connections, each for its sales channels (src/service/connections.ts); the rest use the default one. */
    connections: z
      .array(ConnectionOptionSchema, { error: "connections must be a list of { salesChannelIds, connectionId, apiKey }" })
      .default([]),
    /** Economic nexus (Settings → Sales Tax → Nexus, src/nexus): registered states, threshold overrides, warnings. */
    nexus: NexusOptionsSchema,
  })
  // other parts of the plugin may read further keys (admin, filing): keep them
  .loose()
  .superRefine((o, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message })
    // the sweep may file a record again up to sweep.days after its order: with its street lines
    if (o.filing.addressRetentionDays < o.sweep.days)
      issue(["filing", "addressRetentionDays"], `filing.addressRetentionDays must be at least sweep.days (${o.sweep.days})`)
    // a sales channel on two connections, or a connection named twice (or the default one again)
    const channelAt = new Map<string, number>()
    const connectionAt = new Map<string, string>([[o.connectionId, "connectionId"]])
    o.connections.forEach((c, i) => {
      const other = connectionAt.get(c.connectionId)
      if (other !== undefined) issue(["connections", i, "connectionId"], `connection ${c.connectionId} is already configured at ${other}`)
      else connectionAt.set(c.connectionId, `connections[${i}]`)
      c.salesChannelIds.forEach((sc, j) => {
        const at = channelAt.get(sc)
        if (at !== undefined)
          issue(
            ["connections", i, "salesChannelIds", j],
            `sales channel ${sc} is already on connections[${at}] (a sales channel uses one connection)`,
          )
        else channelAt.set(sc, i)
      })
    })
  })

/** Pure: whether certificates the plugin did not make exempt (option `externalCertificates`, its default by `shopperCertificates`). */
export function externalCertificatesMode(o: Partial<PluginOptions>): "exempt" | "review" {
  return o.externalCertificates ?? (o.shopperCertificates === "off" ? "exempt" : "review")
}

export type PluginOptionsInput = z.input<typeof PluginOptionsSchema>
export type PluginOptions = z.output<typeof PluginOptionsSchema>

export class PluginOptionsError extends Error {
  constructor(public readonly problems: string[]) {
    super(`medusa-sales-tax: invalid options:\n${problems.map((p) => `  - ${p}`).join("\n")}`)
    this.name = "PluginOptionsError"
  }
}

/** Validates raw options (throws PluginOptionsError naming each bad option; never echoes the apiKey). */
export function resolvePluginOptions(raw: unknown): PluginOptions {
  const parsed = PluginOptionsSchema.safeParse(raw ?? {})
  if (parsed.success) return parsed.data
  const problems = parsed.error.issues.map((iss) => `${locate("body", iss.path).slice(5) || "(options)"}: ${iss.message}`)
  throw new PluginOptionsError(problems)
}

export const PLUGIN_NAME = "medusa-sales-tax"

interface ConfigModuleLike {
  plugins?: Array<string | { resolve: string; options?: Record<string, unknown> }>
  modules?: Record<string, unknown>
}

function isOurPlugin(resolve: string): boolean {
  return resolve === PLUGIN_NAME || resolve.endsWith(`/${PLUGIN_NAME}`) || resolve.includes(`/node_modules/${PLUGIN_NAME}/`)
}

function isOurProvider(resolve: unknown): boolean {
  return typeof resolve === "string" && /(^|\/)(providers\/)?sales-tax\/?$|medusa-sales-tax\/providers\/sales-tax/.test(resolve)
}

/** The raw options in a config module: the `medusa-sales-tax` plugin entry, else our tax provider's in the Tax Module. */
export function findRawPluginOptions(config: ConfigModuleLike): unknown {
  for (const p of config.plugins ?? []) {
    if (typeof p !== "string" && isOurPlugin(p.resolve)) return p.options ?? {}
  }
  for (const mod of Object.values(config.modules ?? {})) {
    const m = mod as { resolve?: string; options?: { providers?: Array<{ resolve?: unknown; options?: unknown }> } }
    for (const prov of m?.options?.providers ?? []) {
      if (isOurProvider(prov.resolve)) return prov.options ?? {}
    }
  }
  return undefined
}

// per runtime, not module-level: Medusa loads this file as several module instances
const resolvedCache = runtimeSlot("options", () => new WeakMap<object, PluginOptions>())

/** Plugin options from the app's `configModule` (resolved and validated once per config). */
export function getPluginOptions(container: ScopeLike): PluginOptions {
  const config = container.resolve("configModule") as ConfigModuleLike
  const hit = resolvedCache().get(config)
  if (hit) return hit
  const raw = findRawPluginOptions(config)
  if (raw === undefined) {
    throw new PluginOptionsError([
      `no options found: add { resolve: "${PLUGIN_NAME}", options } to plugins in medusa-config (or register the sales-tax tax provider with its options)`,
    ])
  }
  const opts = resolvePluginOptions(raw)
  resolvedCache().set(config, opts)
  return opts
}

/** Options with the API key masked, for logs and admin screens. */
export function redactOptions(o: PluginOptions): Omit<PluginOptions, "apiKey"> & { apiKey: string } {
  // only the plugin's own options: Medusa adds keys of its own (a database URL that may hold a
  // password), and the schema keeps unknown keys
  const known = new Set(Object.keys(PluginOptionsSchema.shape))
  const own = Object.fromEntries(Object.entries(o).filter(([k]) => known.has(k))) as PluginOptions
  return { ...own, apiKey: "****", connections: (o.connections ?? []).map((c) => ({ ...c, apiKey: "****" })) }
}

/** Pure: the configured sales channels not in `existing`: a boot warning, not an error (the admin must stay up to create them); null: none. */
export function unknownSalesChannelsWarning(o: Pick<PluginOptions, "connections">, existing: ReadonlySet<string>): string | null {
  const unknown = (o.connections ?? []).flatMap((c, i) =>
    c.salesChannelIds.flatMap((sc, j) => (existing.has(sc) ? [] : [`connections[${i}].salesChannelIds[${j}] = ${sc}`])),
  )
  if (!unknown.length) return null
  return (
    `sales-tax: option connections names sales channels that do not exist: ` +
    unknown.join(", ") +
    ` (their carts would use that connection once the channel exists; fix the id or create the channel)`
  )
}
