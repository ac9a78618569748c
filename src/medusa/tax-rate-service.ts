/**
 * BOUNDARY: the Tax Module's private `taxRateService`, resolved from a tax provider's container.
 *
 * Assumes: Medusa's Tax Module (@medusajs/tax, services/tax-module-service.js) registers its
 * data-model service for TaxRate as `taxRateService` in its own container, which is the container
 * Medusa hands the module's providers (their `cradle`), with `list(filters, { relations })`; and
 * TaxRate (models/tax-rate.js) has `is_default` and a `tax_region` (country_code, province_code).
 * A provider is given no public Tax Module service: the module's container holds the module's
 * internal services and a few app resources (manager, config, logger, pg connection, event bus,
 * caching), not the Tax Module itself.
 *
 * Buys: the boot warning of failurePolicy "fallback" (src/checkout/quote/provider.ts,
 * checkFallbackCoverage) counts a US tax region's default rate as a fallback: a store whose US tax
 * region has a default rate is not warned that "any US state" lacks one (checkout.spec.ts, the
 * fallback outage test: with the region's rate deleted the warning names every state; with it, no
 * warning). Without it the warning cannot tell, and says "(the tax regions' rates could not be
 * read)", naming every state not in the options.
 *
 * Contract test: tax-rate-service.test.ts (the constructor's dependency, the model's fields).
 * Boot check: boot-check.ts (`taxRateServiceDifferences` of the installed @medusajs/tax).
 */
import { installedSource } from "./installed"

/** The key of the Tax Module's TaxRate service in its container. */
export const TAX_RATE_SERVICE_KEY = "taxRateService"

export type DefaultRateRow = {
  rate?: number | null
  tax_region?: { country_code?: string | null; province_code?: string | null } | null
}

interface TaxRateServiceLike {
  list(filters: unknown, config: unknown): Promise<DefaultRateRow[]>
}

/** What the fallback-coverage check needs: whether a US-wide default rate exists, and the states with one. */
export interface RegionStates {
  all: boolean
  states: string[]
}

/** Pure: the US default rates' coverage (a rate on the country region covers all states). */
export function regionStatesOf(rows: readonly DefaultRateRow[]): RegionStates {
  const us = rows.filter(
    (r) => r?.rate !== null && r?.rate !== undefined && String(r?.tax_region?.country_code ?? "").toLowerCase() === "us",
  )
  return {
    all: us.some((r) => !r.tax_region?.province_code),
    states: us
      .map((r) =>
        String(r.tax_region?.province_code ?? "")
          .toUpperCase()
          .replace(/^US-/, ""),
      )
      .filter(Boolean),
  }
}

/**
 * The tax regions' US default rates as coverage, read through the Tax Module's taxRateService from
 * a provider's `cradle`; undefined when it cannot be read (no such service, or the read failed).
 */
export async function defaultRegionStates(cradle: Record<string, unknown>): Promise<RegionStates | undefined> {
  let rates: TaxRateServiceLike | undefined
  try {
    rates = cradle[TAX_RATE_SERVICE_KEY] as TaxRateServiceLike | undefined
  } catch {
    rates = undefined // an awilix cradle throws for a key it does not hold
  }
  if (typeof rates?.list !== "function") return undefined
  try {
    return regionStatesOf(await rates.list({ is_default: true }, { relations: ["tax_region"] }))
  } catch {
    return undefined
  }
}

/** What differs from the assumption in the installed @medusajs/tax; empty: it holds. Pure over the two sources. */
export function taxRateServiceDifferences(
  service: string | undefined = installedSource("@medusajs/tax", "services/tax-module-service.js"),
  model: string | undefined = installedSource("@medusajs/tax", "models/tax-rate.js"),
): string[] {
  const out: string[] = []
  const ctor = /constructor\(\{([^}]*)\}/.exec(service ?? "")?.[1] ?? ""
  if (!/\btaxRateService\b/.test(ctor)) out.push("the Tax Module's container no longer gives it taxRateService")
  if (!/this\.taxRateService_\.list\(/.test(service ?? "")) out.push("the Tax Module no longer lists rates through taxRateService")
  for (const f of ["is_default: ", "tax_region: "]) if (!(model ?? "").includes(f)) out.push(`TaxRate has no ${f.slice(0, -2)}`)
  return out
}
