import { Badge, Button, Container, Heading, Input, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { AdminApiError, api, errorMessage } from "../lib/api"
import type { AdminTicResponse, AdminTicSearchResponse, AdminTicSetResponse, TicInfo, TicSource, TicTargetType } from "../../http/types"
import { useLoad } from "../lib/use-load"
import { ErrorText, useBusy } from "./ui"

const SOURCE_TEXT: Record<TicSource, string> = {
  product: "set on this product",
  product_type: "from the product type",
  product_category: "from a category",
  default: "the store default",
}

const TITLES: Record<TicTargetType, string> = {
  product: "Sales tax code (TIC)",
  "product-type": "Default TIC for this type",
  "product-category": "Default TIC for this category",
}

export function ticText(t: TicInfo | null | undefined): string {
  if (!t) return "none"
  return t.label ? `${t.ticId} · ${t.label}` : String(t.ticId)
}

export function TicPanel({ type, id }: { type: TicTargetType; id: string }) {
  const path = `/admin/sales-tax/tics/${type}/${encodeURIComponent(id)}`
  const { data, error, loading, reload } = useLoad(() => api<AdminTicResponse>(path), [path])
  const [query, setQuery] = useState("")
  const [searching, setSearching] = useState(false)
  const [search, setSearch] = useState<AdminTicSearchResponse | null>(null)
  const [searchError, setSearchError] = useState<string | null>(null)
  const { busy, run } = useBusy<"save">()

  const runSearch = async (cursor?: string) => {
    if (!query.trim()) {
      setSearchError("Type what the product is, e.g. “cotton t-shirt”")
      return
    }
    setSearching(true)
    setSearchError(null)
    try {
      const res = await api<AdminTicSearchResponse>("/admin/sales-tax/tics/search", {
        method: "POST",
        body: { query: query.trim(), limit: 8, ...(cursor ? { cursor } : {}) },
      })
      setSearch((prev) => (cursor && prev ? { ...res, results: [...prev.results, ...res.results] } : res))
    } catch (e) {
      setSearchError(e instanceof AdminApiError && e.errors[0] ? e.errors[0].message : errorMessage(e))
    } finally {
      setSearching(false)
    }
  }

  const save = (tic: number | null) =>
    run("save", async () => {
      if (tic === null) {
        await api(path, { method: "DELETE" })
        toast.success("TIC cleared")
      } else {
        const saved = await api<AdminTicSetResponse>(path, { method: "POST", body: { tic } })
        // the service could not check the TIC: saved unverified, the admin is told
        if (saved.warning) toast.warning(`TIC ${tic} saved unverified`, { description: saved.warning })
        else toast.success(`TIC ${tic} saved`)
      }
      setSearch(null)
      setQuery("")
      await reload()
    })

  return (
    <Container className="divide-y p-0" data-testid={`sales-tax-tic-${type}`}>
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">{TITLES[type]}</Heading>
        {data?.assigned ? (
          <Button size="small" variant="secondary" isLoading={busy === "save"} onClick={() => save(null)} data-testid="tic-clear">
            Clear
          </Button>
        ) : null}
      </div>
      <div className="flex flex-col gap-y-2 px-6 py-4">
        {loading && !data ? (
          <Text size="small" className="text-ui-fg-subtle">
            Loading…
          </Text>
        ) : null}
        <ErrorText error={error} />
        {data ? (
          <>
            <div className="flex flex-wrap items-center gap-2" data-testid="tic-resolved">
              <Text size="small" weight="plus">
                Taxed as
              </Text>
              <Badge size="2xsmall" color={data.resolved.source === "default" ? "orange" : "green"} data-testid="tic-resolved-code">
                {data.resolved.tic.ticId}
              </Badge>
              <Text size="small">{data.resolved.tic.label ?? "unknown code"}</Text>
            </div>
            <Text size="small" className="text-ui-fg-subtle" data-testid="tic-source">
              Source:{" "}
              {type !== "product"
                ? data.resolved.source === "default"
                  ? SOURCE_TEXT.default
                  : `set on this ${type === "product-type" ? "type" : "category"}`
                : SOURCE_TEXT[data.resolved.source]}
              {type === "product" && data.resolved.source === "product_type" && data.chain.productType?.name
                ? ` “${data.chain.productType.name}”`
                : ""}
              {type === "product" && data.resolved.source === "product_category"
                ? ` “${data.chain.categories?.find((c) => c.id === data.resolved.sourceId)?.name ?? data.resolved.sourceId}”`
                : ""}
            </Text>
            {type === "product" ? (
              <div className="grid gap-x-3 gap-y-1 pt-1" style={{ gridTemplateColumns: "auto 1fr" }}>
                <Text size="xsmall" className="text-ui-fg-muted">
                  Product
                </Text>
                <Text size="xsmall" className="text-ui-fg-subtle" data-testid="tic-chain-product">
                  {ticText(data.chain.product)}
                </Text>
                <Text size="xsmall" className="text-ui-fg-muted">
                  Type
                </Text>
                <Text size="xsmall" className="text-ui-fg-subtle">
                  {data.chain.productType
                    ? `${data.chain.productType.name ?? data.chain.productType.id}: ${ticText(data.chain.productType.tic)}`
                    : "no type"}
                </Text>
                <Text size="xsmall" className="text-ui-fg-muted">
                  Categories
                </Text>
                <Text size="xsmall" className="text-ui-fg-subtle">
                  {data.chain.categories && data.chain.categories.length
                    ? data.chain.categories.map((c) => `${c.name ?? c.id}: ${ticText(c.tic)}`).join("; ")
                    : "none"}
                </Text>
                <Text size="xsmall" className="text-ui-fg-muted">
                  Default
                </Text>
                <Text size="xsmall" className="text-ui-fg-subtle">
                  {ticText(data.chain.default)}
                </Text>
              </div>
            ) : (
              <Text size="xsmall" className="text-ui-fg-subtle">
                Products without their own TIC use this code{type === "product-category" ? " (when their type has none)" : ""}. Store
                default: {ticText(data.chain.default)}.
              </Text>
            )}
          </>
        ) : null}
      </div>
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
          <Button size="small" variant="secondary" type="submit" isLoading={searching} data-testid="tic-search-button">
            Search
          </Button>
        </form>
        {searchError ? (
          <Text size="xsmall" className="text-ui-fg-error" data-testid="tic-search-error">
            {searchError}
          </Text>
        ) : null}
        {search ? (
          <div className="flex flex-col divide-y rounded-md border" data-testid="tic-search-results">
            {search.results.length === 0 ? (
              <Text size="small" className="px-3 py-2 text-ui-fg-subtle">
                No TIC matches “{search.query}”.
              </Text>
            ) : null}
            {search.results.map((r) => (
              <div key={r.ticId} className="flex items-center justify-between gap-x-3 px-3 py-2" data-testid={`tic-result-${r.ticId}`}>
                <div className="min-w-0">
                  <Text size="small" weight="plus" className="truncate">
                    {r.ticId} · {r.label}
                  </Text>
                  {r.description && r.description !== r.label ? (
                    <Text size="xsmall" className="line-clamp-2 text-ui-fg-subtle">
                      {r.description}
                    </Text>
                  ) : null}
                </div>
                <Button
                  size="small"
                  variant="secondary"
                  disabled={busy === "save" || data?.assigned?.ticId === r.ticId}
                  onClick={() => save(r.ticId)}
                  data-testid={`tic-use-${r.ticId}`}
                >
                  {data?.assigned?.ticId === r.ticId ? "Current" : "Use"}
                </Button>
              </div>
            ))}
            {search.nextCursor ? (
              <div className="px-3 py-2">
                <Button size="small" variant="transparent" isLoading={searching} onClick={() => runSearch(search.nextCursor ?? undefined)}>
                  More results
                </Button>
              </div>
            ) : null}
          </div>
        ) : null}
      </div>
    </Container>
  )
}
