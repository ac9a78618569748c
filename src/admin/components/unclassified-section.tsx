// Settings → Sales Tax → TICs, "Unclassified products": the products on the default TIC with a
// suggested TIC (GET /admin/sales-tax/tics/unclassified); accept one, accept every suggestion at or
// above a confidence (POST …/apply, the bulk path: progress from the import job), or open the
// product to choose another with the TIC search.
import { Container, Heading, Input, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { post } from "../lib/api"
import { useApi, useBusy, useJob } from "../lib/hooks"
import { type BadgeColor, Btn, DataTable, ErrorText, JobProgress, NavLink, Note, Pager, Tag } from "./ui"
import type { listUnclassified } from "../../tics/classify/medusa"
import type { SearchRun } from "../../tics/classify/search"
import type { TicImportJob } from "../../tics/medusa"

const PAGE = 20

/** A confidence's colour and word: high (≥ 0.7, the default "accept all"), medium, low (< 0.5: never accepted in bulk). */
const band = (c: number): [BadgeColor, string] => (c >= 0.7 ? ["green", "high"] : c >= 0.5 ? ["orange", "medium"] : ["red", "low"])

export function UnclassifiedSection() {
  const [offset, setOffset] = useState(0)
  const [min, setMin] = useState("0.7")
  const { data, error, loading, reload } = useApi<Awaited<ReturnType<typeof listUnclassified>>>(
    `/admin/sales-tax/tics/unclassified?limit=${PAGE}&offset=${offset}`,
  )
  const { job, start } = useJob<TicImportJob>("/admin/sales-tax/tics/import/apply", "job", 500, reload)
  const { run } = useBusy()

  const apply = (body: object) =>
    run("apply", async () => {
      const path = "/admin/sales-tax/tics/unclassified/apply"
      const r = await post<{ job: TicImportJob; changes: number; searches?: SearchRun }>(path, body)
      const later = r.searches?.notSearched ?? 0
      toast.success(
        `${r.changes} TIC(s) being set${later ? `; ${later} queries were past this run's ceiling of ${r.searches!.ceiling} searches: accept all again for the rest` : ""}`,
      )
      start(r.job)
    })

  const running = job?.status === "running"
  const accept = (productId: string, tic: number, label: string, variant: "secondary" | "transparent") => (
    <Btn key={tic} variant={variant} disabled={running} onClick={() => apply({ items: [{ product_id: productId, tic }] })}>
      {label}
    </Btn>
  )
  return (
    <Container className="flex flex-col gap-y-3 p-6" data-testid="tics-unclassified">
      <Heading level="h2">Unclassified products</Heading>
      <Note tone="subtle" size="small">
        {data
          ? `${data.count}${data.truncated ? "+" : ""} product(s) on the default TIC (no TIC on the product, its type or a category). Suggestions come from each listing's title, type, categories, collection, tags and description, through the service's TIC search.`
          : "Loading…"}
      </Note>
      <ErrorText error={error} />
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
        <Btn disabled={running || !data?.count} onClick={() => apply({ min_confidence: Number(min) })} testId="tics-accept-all">
          Accept all
        </Btn>
      </div>
      {job ? <JobProgress job={job} testId="tics-unclassified-progress" /> : null}
      {data?.products.length ? (
        <DataTable
          headers={["Product", "Suggested TIC", "Or", ""]}
          rows={data.products}
          rowKey={(p) => p.id}
          rowTestId={(p) => `tics-unclassified-${p.id}`}
          cells={({ id, title, suggestion: s, note }) => [
            title ?? id,
            s ? (
              <span className="flex items-center gap-x-2">
                {`${s.tic} · ${s.label}`}
                <Tag color={band(s.confidence)[0]}>{`${band(s.confidence)[1]} ${s.confidence.toFixed(2)}`}</Tag>
              </span>
            ) : (
              <Note tone="subtle">{note}</Note>
            ),
            (s?.alternatives ?? []).map((a) => accept(id, a.tic, `${a.tic} · ${a.label}`, "transparent")),
            <span className="flex items-center gap-x-2">
              {s ? accept(id, s.tic, "Accept", "secondary") : null}
              <NavLink to={`/products/${id}`}>Choose another</NavLink>
            </span>,
          ]}
        />
      ) : null}
      {data && data.count > PAGE ? (
        <div className="flex items-center justify-between">
          <Note tone="subtle">{`${offset + 1}-${Math.min(offset + PAGE, data.count)} of ${data.count} · searches: ${data.searches.searched} made, ${data.searches.cached} cached`}</Note>
          <Pager offset={offset} page={PAGE} count={data.count} go={setOffset} disabled={loading} />
        </div>
      ) : null}
    </Container>
  )
}
