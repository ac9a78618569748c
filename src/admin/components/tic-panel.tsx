// The TIC panel of the product, product type and category pages: what the target is taxed as and
// why (every level considered), the service's TIC search, and Use / Clear.
import { Input, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { api, errorMessage, fieldErrorsOf, post } from "../lib/api"
import { useApi, useBusy } from "../lib/hooks"
import type { AdminTicResponse, AdminTicSetResponse, TicTargetType } from "../../tics/targets"
import type { TicSearchResponse } from "../../../packages/contract/src/index"
import type { TicInfo } from "../../tics/lookup"
import { Btn, Note, Section, Strong, Tag } from "./ui"

const TITLES: Record<TicTargetType, string> = {
  product: "Sales tax code (TIC)",
  "product-type": "Default TIC for this type",
  "product-category": "Default TIC for this category",
}

export const ticText = (t: TicInfo | null | undefined) => (!t ? "none" : t.label ? `${t.ticId} · ${t.label}` : String(t.ticId))

/** Where the TIC comes from, in words: a type or category page speaks of itself, a product names the type or category. */
function sourceText(type: TicTargetType, { resolved, chain }: AdminTicResponse): string {
  if (resolved.source === "default") return "the store default"
  if (type !== "product") return `set on this ${type === "product-type" ? "type" : "category"}`
  if (resolved.source === "product_type") return `from the product type${chain.productType?.name ? ` “${chain.productType.name}”` : ""}`
  if (resolved.source === "product_category")
    return `from a category “${chain.categories?.find((c) => c.id === resolved.sourceId)?.name ?? resolved.sourceId}”`
  return "set on this product"
}

/** A product's levels, each with its TIC: the product, its type, its categories, the store default. */
const chainRows = ({ product, productType: pt, categories, default: dflt }: AdminTicResponse["chain"]): [string, string][] => [
  ["Product", ticText(product)],
  ["Type", pt ? `${pt.name ?? pt.id}: ${ticText(pt.tic)}` : "no type"],
  ["Categories", categories?.length ? categories.map((c) => `${c.name ?? c.id}: ${ticText(c.tic)}`).join("; ") : "none"],
  ["Default", ticText(dflt)],
]

export function TicPanel({ type, id }: { type: TicTargetType; id: string }) {
  const path = `/admin/sales-tax/tics/${type}/${encodeURIComponent(id)}`
  const load = useApi<AdminTicResponse>(path)
  const { data, reload } = load
  const [query, setQuery] = useState("")
  const [search, setSearch] = useState<TicSearchResponse | null>(null)
  const { busy, run } = useBusy<"save">()
  // a search's failure stays under the search box (the field's own message when the route names one)
  const searching = useBusy<"search">(null)

  const runSearch = (cursor?: string) =>
    searching.run("search", async () => {
      if (!query.trim()) throw new Error("Type what the product is, e.g. “cotton t-shirt”")
      const body = { query: query.trim(), limit: 8, cursor }
      const res = await post<TicSearchResponse>("/admin/sales-tax/tics/search", body).catch((e: unknown) => {
        throw new Error(Object.values(fieldErrorsOf(e))[0] ?? errorMessage(e))
      })
      setSearch((prev) => (cursor && prev ? { ...res, results: [...prev.results, ...res.results] } : res))
    })

  const save = (tic: number | null) =>
    run("save", async () => {
      if (tic === null) {
        await api(path, { method: "DELETE" })
        toast.success("TIC cleared")
      } else {
        const saved = await post<AdminTicSetResponse>(path, { tic })
        // the service could not check the TIC: saved unverified, the admin is told
        if (saved.warning) toast.warning(`TIC ${tic} saved unverified`, { description: saved.warning })
        else toast.success(`TIC ${tic} saved`)
      }
      setSearch(null)
      setQuery("")
      await reload()
    })

  const current = data?.assigned?.ticId
  return (
    <Section
      testId={`sales-tax-tic-${type}`}
      title={TITLES[type]}
      load={load}
      actions={
        current !== undefined ? (
          <Btn busy={busy === "save"} onClick={() => save(null)} testId="tic-clear">
            Clear
          </Btn>
        ) : null
      }
    >
      {data ? (
        <div className="flex flex-col gap-y-2 px-6 py-4">
          <div className="flex flex-wrap items-center gap-2" data-testid="tic-resolved">
            <Strong>Taxed as</Strong>
            <Tag color={data.resolved.source === "default" ? "orange" : "green"} testId="tic-resolved-code">
              {data.resolved.tic.ticId}
            </Tag>
            <Text size="small">{data.resolved.tic.label ?? "unknown code"}</Text>
          </div>
          <Note tone="subtle" size="small" testId="tic-source">
            Source: {sourceText(type, data)}
          </Note>
          {type === "product" ? (
            <div className="grid gap-x-3 gap-y-1 pt-1" style={{ gridTemplateColumns: "auto 1fr" }}>
              {chainRows(data.chain).flatMap(([level, text]) => [
                <Note key={level} tone="muted">
                  {level}
                </Note>,
                <Note key={`${level}-tic`} tone="subtle" testId={`tic-chain-${level.toLowerCase()}`}>
                  {text}
                </Note>,
              ])}
            </div>
          ) : (
            <Note tone="subtle">
              Products without their own TIC use this code{type === "product-category" ? " (when their type has none)" : ""}. Store default:{" "}
              {ticText(data.chain.default)}.
            </Note>
          )}
        </div>
      ) : null}
      <div className="flex flex-col gap-y-2 px-6 py-4">
        <form
          className="flex gap-x-2"
          onSubmit={(e) => {
            e.preventDefault()
            void runSearch()
          }}
        >
          <Input
            size="small"
            placeholder="Search TICs: e.g. children's clothing"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            data-testid="tic-search-input"
            aria-label="Search TICs"
          />
          <Btn type="submit" busy={searching.busy === "search"} testId="tic-search-button">
            Search
          </Btn>
        </form>
        <Note tone="error" testId="tic-search-error">
          {searching.error}
        </Note>
        {search ? (
          <div className="flex flex-col divide-y rounded-md border" data-testid="tic-search-results">
            <Note className="px-3 py-2" tone="subtle" size="small">
              {!search.results.length && `No TIC matches “${search.query}”.`}
            </Note>
            {search.results.map((r) => (
              <div key={r.ticId} className="flex items-center justify-between gap-x-3 px-3 py-2" data-testid={`tic-result-${r.ticId}`}>
                <div className="min-w-0">
                  <Strong className="truncate">
                    {r.ticId} · {r.label}
                  </Strong>
                  <Note tone="subtle" className="line-clamp-2">
                    {r.description !== r.label && r.description}
                  </Note>
                </div>
                <Btn disabled={busy === "save" || current === r.ticId} onClick={() => save(r.ticId)} testId={`tic-use-${r.ticId}`}>
                  {current === r.ticId ? "Current" : "Use"}
                </Btn>
              </div>
            ))}
            {search.nextCursor ? (
              <Btn
                variant="transparent"
                className="m-2 self-start"
                busy={searching.busy === "search"}
                onClick={() => runSearch(search.nextCursor!)}
              >
                More results
              </Btn>
            ) : null}
          </div>
        ) : null}
      </div>
    </Section>
  )
}
