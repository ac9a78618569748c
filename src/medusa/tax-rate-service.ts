/**
 * BOUNDARY: the Tax Module's private `taxRateService` in its providers' container (they get no public
 * service), with `list(filters, { relations })`; TaxRate has `is_default` and `tax_region`. Buys: the
 * fallback-coverage warning counts tax regions' default rates (else it names every state).
 * Contract test: tax-rate-service.test.ts. Boot check: `taxRateServiceDifferences`.
 */
import { fromCradle } from "../runtime"
import { installedSource } from "./installed"

export type DefaultRateRow = {
  rate?: number | null
  tax_region?: { country_code?: string | null; province_code?: string | null } | null
}

/** Pure: the US default rates' coverage: whether a US-wide one exists (on the country region), and the states with one. */
export function regionStatesOf(rows: readonly DefaultRateRow[]): { all: boolean; states: string[] } {
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

/** The tax regions' US default rates as coverage, from a provider's `cradle`; undefined when unreadable. */
export async function defaultRegionStates(cradle: Record<string, unknown>): Promise<ReturnType<typeof regionStatesOf> | undefined> {
  const rates = fromCradle(cradle, "taxRateService") as { list?(filters: unknown, config: unknown): Promise<DefaultRateRow[]> } | undefined
  if (typeof rates?.list !== "function") return undefined
  try {
    return regionStatesOf(await rates.list({ is_default: true }, { relations: ["tax_region"] }))
  } catch {
    return undefined
  }
}

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
