import { Badge, Button, Container, Heading, Input, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { api, errorMessage } from "../lib/api"
import { useLoad } from "../lib/use-load"
import { DataTable, JobProgress, NavLink, Pager, useImportJob } from "./ui"
import type { UnclassifiedProduct } from "../../tics/classify/medusa"
import type { SearchRun } from "../../tics/classify/search"
import type { TicImportJob } from "../../tics/medusa"

const PAGE = 20

interface ListView {
  count: number
  truncated: boolean
  offset: number
  products: UnclassifiedProduct[]
  searches: SearchRun
}

/** A confidence's colour and word: high (≥ 0.7, the default "accept all"), medium, low (< 0.5: never accepted in bulk). */
const band = (c: number): ["green" | "orange" | "red", string] =>
  c >= 0.7 ? ["green", "high"] : c >= 0.5 ? ["orange", "medium"] : ["red", "low"]

/**
 * Settings → Sales Tax → TICs, "Unclassified products": the products on the default TIC with a
 * suggested TIC (GET /admin/sales-tax/tics/unclassified); accept one, accept every suggestion at or
 * above a confidence (POST …/apply, the bulk path: progress from the import job), or open the
 * product to choose another with the TIC search.
 */
export function UnclassifiedSection() {
  const [offset, setOffset] = useState(0)
  const [min, setMin] = useState("0.7")
  const { data, error, loading, reload } = useLoad(
    () => api<ListView>(`/admin/sales-tax/tics/unclassified?limit=${PAGE}&offset=${offset}`),
    [offset],
  )
  const { job, setJob, watch } = useImportJob(reload)

  const apply = async (body: object) => {
    try {
      const r = await api<{ job: TicImportJob; changes: number; searches?: SearchRun }>("/admin/sales-tax/tics/unclassified/apply", {
        method: "POST",
        body,
      })
      setJob(r.job)
      const later = r.searches?.notSearched ?? 0
      toast.success(
        `${r.changes} TIC(s) being set${later ? `; ${later} queries were past this run's ceiling of ${r.searches!.ceiling} searches: accept all again for the rest` : ""}`,
      )
      watch()
    } catch (e) {
      toast.error(errorMessage(e))
    }
  }

  const running = job?.status === "running"
  return (
    <Container className="flex flex-col gap-y-3 p-6" data-testid="tics-unclassified">
      <Heading level="h2">Unclassified products</Heading>
      <Text size="small" className="text-ui-fg-subtle">
        {data
          ? `${data.count}${data.truncated ? "+" : ""} product(s) on the default TIC (no TIC on the product, its type or a category). Suggestions come from each listing's title, type, categories, collection, tags and description, through the service's TIC search.`
          : "Loading…"}
      </Text>
      {error ? <Text className="text-ui-fg-error">{error}</Text> : null}
      <div className="flex items-center gap-x-2">
        <Text size="small">Accept every suggestion with a confidence of at least</Text>
        <Input
          size="small"
          className="w-20"
          type="number"
          min={0.5}
          max={1}
          step={0.05}
          value={min}
          onChange={(e) => setMin(e.target.value)}
        />
        <Button
          size="small"
          variant="secondary"
          disabled={running || !data?.count}
          onClick={() => apply({ min_confidence: Number(min) })}
          data-testid="tics-accept-all"
        >
          Accept all
        </Button>
      </div>
      {job ? <JobProgress job={job} testId="tics-unclassified-progress" /> : null}
      {data?.products.length ? (
        <DataTable
          headers={["Product", "Suggested TIC", "Or", ""]}
          rows={data.products}
          rowKey={(p) => p.id}
          rowTestId={(p) => `tics-unclassified-${p.id}`}
          cells={(p) => {
            const s = p.suggestion
            return [
              p.title ?? p.id,
              s ? (
                <span className="flex items-center gap-x-2">
                  {`${s.tic} · ${s.label}`}
                  <Badge size="2xsmall" color={band(s.confidence)[0]}>{`${band(s.confidence)[1]} ${s.confidence.toFixed(2)}`}</Badge>
                </span>
              ) : (
                <Text size="xsmall" className="text-ui-fg-subtle">
                  {p.note}
                </Text>
              ),
              (s?.alternatives ?? []).map((a) => (
                <Button
                  key={a.tic}
                  size="small"
                  variant="transparent"
                  disabled={running}
                  onClick={() => apply({ items: [{ product_id: p.id, tic: a.tic }] })}
                >
                  {`${a.tic} · ${a.label}`}
                </Button>
              )),
              <span key="actions" className="flex items-center gap-x-2">
                {s ? (
                  <Button
                    size="small"
                    variant="secondary"
                    disabled={running}
                    onClick={() => apply({ items: [{ product_id: p.id, tic: s.tic }] })}
                  >
                    Accept
                  </Button>
                ) : null}
                <NavLink to={`/products/${p.id}`}>Choose another</NavLink>
              </span>,
            ]
          }}
        />
      ) : null}
      {data && data.count > PAGE ? (
        <div className="flex items-center justify-between">
          <Text
            size="xsmall"
            className="text-ui-fg-subtle"
          >{`${offset + 1}-${Math.min(offset + PAGE, data.count)} of ${data.count} · searches: ${data.searches.searched} made, ${data.searches.cached} cached`}</Text>
          <Pager offset={offset} page={PAGE} count={data.count} go={setOffset} disabled={loading} />
        </div>
      ) : null}
    </Container>
  )
}
