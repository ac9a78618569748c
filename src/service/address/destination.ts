// The destination a cart is quoted for: the shipping address as typed, or when its state is missing or
// disagrees with its ZIP, what verify-address answers (cached per address). The shopper's address is not
// rewritten: the resolved destination is quoted and filed.
import { isSalesTaxError, type SalesTaxClient, type SalesTaxError } from "../client"
import type { Address, ErrorDetail } from "../../../packages/contract/src/index"
import { serviceAddress, type MedusaAddressLike } from "../cart/build-service-cart"
import {
  ADDRESS_UNRESOLVED_CODE,
  CURRENCY_UNSUPPORTED_CODE,
  normalizeUsZip,
  planDestination,
  serviceLines,
  zipText,
  type ResolvedDestination,
} from "./us-address"
import { US_STATES } from "../../../packages/contract/src/index"
import type { PluginOptions } from "../../options"
import { addressKey, verifyAddressGuard, type Verdict } from "./verify-address-limits"
import { withDeadline } from "../deadline"
import { recordRateId } from "../../medusa/tax-line-record"

const STATE_SET = new Set<string>(US_STATES)

/** What the quote path does with a cart's address. */
export type QuoteDestination =
  | { address: Address; destination: ResolvedDestination }
  | {
      address: null
      /**
       * not_us / territory: nothing to tax; the others (not USD, no state or ZIP, verify-address silent) refused at completion.
       * An "unavailable" cart stays untaxed until verify-address answers.
       */
      reason: "not_us" | "territory" | "currency" | "unresolved" | "unavailable"
      code?: typeof ADDRESS_UNRESOLVED_CODE | typeof CURRENCY_UNSUPPORTED_CODE
      detail?: string
    }

export interface VerifyDeps {
  options: Pick<PluginOptions, "baseUrl" | "connectionId" | "verifyAddressRateLimit">
  /** The client that asks verify-address (a checkout client: retries within the quote's bound). */
  client: () => Pick<SalesTaxClient, "verifyAddress">
  /** Epoch ms by which the answer is needed (the quote's one bound); none: no bound here. */
  deadline?: number
}

/** verify-address's verdict: 400/422 is "invalid" with its located errors (else `unlocated`'s); anything else throws. */
export async function askVerdict(
  client: Pick<SalesTaxClient, "verifyAddress">,
  request: Address,
  unlocated = (e: SalesTaxError): ErrorDetail[] => [{ location: "body", message: e.detail || e.title, value: null }],
): Promise<Verdict> {
  try {
    return { kind: "verified", address: await client.verifyAddress(request) }
  } catch (e) {
    if (isSalesTaxError(e) && (e.status === 400 || e.status === 422))
      return { kind: "invalid", errors: e.errors.length ? e.errors : unlocated(e) }
    throw e
  }
}

/** Whether a currency code is the US dollar (the plugin quotes and files USD only). */
export function isUsd(currency: string | null | undefined): boolean {
  return (currency ?? "").trim().toLowerCase() === "usd"
}

/** Pure: quoteDestination's answer when it needs no service call, else null; `currency` undefined is not checked. */
export function plannedDestination(a: MedusaAddressLike | null | undefined, currency?: string | null): QuoteDestination | null {
  if (!a || (a.country_code ?? "").trim().toLowerCase() !== "us") return { address: null, reason: "not_us" }
  const plan = planDestination(a.province_code, a.postal_code)
  if (plan.kind === "territory") return { address: null, reason: "territory" }
  if (currency !== undefined && !isUsd(currency)) return { address: null, reason: "currency", code: CURRENCY_UNSUPPORTED_CODE }
  if (plan.kind === "typed") return { address: serviceAddress(a, plan.destination), destination: plan.destination }
  if (plan.kind === "unresolved") {
    return { address: null, reason: "unresolved", code: ADDRESS_UNRESOLVED_CODE, detail: `no usable ${plan.field}` }
  }
  return null
}

/** THE destination rule (checkout, completion, filing, re-quote): where the state and ZIP disagree, verify-address decides. */
export async function quoteDestination(
  a: MedusaAddressLike | null | undefined,
  currency: string | null | undefined,
  deps: VerifyDeps,
): Promise<QuoteDestination> {
  const planned = plannedDestination(a, currency)
  if (planned || !a) return planned ?? { address: null, reason: "not_us" }
  const plan = planDestination(a.province_code, a.postal_code)
  if (plan.kind !== "verify") return { address: null, reason: "not_us" }
  const request = serviceLines(a, plan.state, zipText(plan.zip))
  let verdict: Verdict
  try {
    // the verdict cache shared with POST /store/sales-tax/verify-address (verify-address-limits.ts): one per store connection
    const cache = verifyAddressGuard(`${deps.options.baseUrl}|${deps.options.connectionId}`, deps.options.verifyAddressRateLimit)
    const ask = () => cache.verdict(addressKey(request), () => askVerdict(deps.client(), request))
    verdict = (deps.deadline === undefined ? await ask() : await withDeadline(ask, deps.deadline - Date.now())).verdict
  } catch (e) {
    const why = isSalesTaxError(e) ? `${e.status ?? e.code}: ${e.title}` : (e as Error)?.message || String(e)
    return { address: null, reason: "unavailable", code: ADDRESS_UNRESOLVED_CODE, detail: `verify-address: ${why}`.slice(0, 200) }
  }
  if (verdict.kind === "invalid") {
    const why = verdict.errors.map((x) => x.message).join("; ")
    return { address: null, reason: "unresolved", code: ADDRESS_UNRESOLVED_CODE, detail: `verify-address: ${why}`.slice(0, 200) }
  }
  const state = verdict.address.state.toUpperCase()
  const zip = normalizeUsZip(verdict.address.zip)
  if (!zip) return { address: null, reason: "unresolved", code: ADDRESS_UNRESOLVED_CODE, detail: "verify-address answered no US ZIP" }
  // the service placed the ZIP in a territory: nothing to tax
  if (!STATE_SET.has(state)) return { address: null, reason: "territory" }
  const destination: ResolvedDestination = { state, ...zip, source: "verified" }
  return { address: serviceAddress(a, destination), destination }
}

/** Puts the quoted destination on every tax line's data (contract: filing files it), and the data in its rate_id (tax-line-record.ts). */
export function stampDestination<T extends { data?: Record<string, unknown> | null; rate_id?: string }>(
  lines: T[],
  d: ResolvedDestination,
): T[] {
  const value = d.zip4 ? { state: d.state, zip: d.zip, zip4: d.zip4, source: d.source } : { state: d.state, zip: d.zip, source: d.source }
  // the lines share their destination and origin objects: each written once
  const written = new Map<unknown, string>()
  // in place: each line's data is its own
  for (const l of lines) {
    ;(l.data ??= {}).destination = value
    l.rate_id = recordRateId(l.data, written)
  }
  return lines
}
