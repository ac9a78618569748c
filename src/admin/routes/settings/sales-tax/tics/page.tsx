import { Badge, Container, Heading, Input, Text, toast } from "@medusajs/ui"
import { useState, type ReactNode } from "react"
import { downloadFile, post } from "../../../../lib/api"
import { useApi, useBusy, useJob } from "../../../../lib/hooks"
import type { ImportPlan } from "../../../../../tics/bulk"
import type { listUnclassified, SearchRun } from "../../../../../tics/classify/medusa"
import type { TicImportJob } from "../../../../../tics/medusa"
import { type BadgeColor, Btn, DataTable, ErrorText, NavLink, Note, Page, Pager, Progress, Tag } from "../../../../components/ui"

const SHOWN = 200
const PAGE = 20

/** A bulk TIC import job's progress: the bar, then "N of M applied" or its error. */
function JobProgress({ job, testId, children }: { job: TicImportJob; testId: string; children?: ReactNode }) {
  return (
    <div data-testid={testId} data-status={job.status}>
      <Progress done={job.done} total={job.total} finished={job.status === "done"} />
      <Note tone={job.status === "failed" ? "error" : "subtle"}>
        {job.status === "failed" ? job.error : `${job.done} of ${job.total} ${job.status === "done" ? "applied" : "applying…"}`}
      </Note>
      {children}
    </div>
  )
}

/** A confidence's colour and word: high (≥ 0.7, the default "accept all"), medium, low (< 0.5: never accepted in bulk). */
const band = (c: number): [BadgeColor, string] => (c >= 0.7 ? ["green", "high"] : c >= 0.5 ? ["orange", "medium"] : ["red", "low"])

/**
 * The products on the default TIC, each with a suggestion to accept (one, or all above a confidence: the bulk import's path)
 * or another to choose.
 */
function UnclassifiedSection() {
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

/** Settings → Sales Tax → TICs: the catalogue's TICs as CSV, the unclassified products with suggestions, and a CSV import with a dry run (src/tics). */
const TicsPage = () => {
  const [csv, setCsv] = useState<{ text: string; name: string } | null>(null)
  const [plan, setPlan] = useState<ImportPlan | null>(null)
  // an action's failure, or the import's progress read failing, shown under the file input
  const { busy, run, error, setError } = useBusy<"export" | "preview" | "apply">(null)
  const { job, setJob, start } = useJob<TicImportJob>("/admin/sales-tax/tics/import/apply", "job", 500, undefined, setError)

  const onFile = async (file: File | undefined) => {
    setPlan(null)
    setJob(null)
    if (!file) return
    const text = await file.text()
    setCsv({ text, name: file.name })
    await run("preview", async () => setPlan((await post<{ plan: ImportPlan }>("/admin/sales-tax/tics/import", { csv: text })).plan))
  }

  const apply = (mode: "all" | "valid_rows") =>
    run("apply", async () => {
      const body = { csv: csv?.text, mode, preview_hash: plan?.hash }
      start((await post<{ job: TicImportJob }>("/admin/sales-tax/tics/import/apply", body)).job)
    })

  const running = job?.status === "running"
  return (
    <Page
      testId="tics-page"
      title="TICs for the whole catalogue"
      subtitle="Export every product with the TIC it has and the TIC it resolves to; import a CSV that sets TICs on products, product types or categories by id or handle (columns target, id or handle, tic; an empty tic clears). The import is checked first and applied as one change: nothing is half-applied."
      actions={
        <>
          <NavLink to="/settings/sales-tax">Sales Tax</NavLink>
          <Btn
            busy={busy === "export"}
            onClick={() => run("export", () => downloadFile("/admin/sales-tax/tics/export", "sales-tax-product-tics.csv"))}
            testId="tics-export"
          >
            Export CSV
          </Btn>
        </>
      }
    >
      <UnclassifiedSection />
      <Container className="flex flex-col gap-y-2 px-6 py-4">
        <label className="txt-compact-small flex items-center gap-x-2">
          <span>Import a CSV file</span>
          <input type="file" accept=".csv,text/csv" onChange={(e) => void onFile(e.target.files?.[0])} data-testid="tics-import-file" />
        </label>
        {busy === "preview" ? <Text size="small">Checking {csv?.name}…</Text> : null}
        <ErrorText error={error} testId="tics-error" />
      </Container>
      {plan ? (
        <Container className="flex flex-col gap-y-3 px-6 py-4" data-testid="tics-preview">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <Badge color="green" data-testid="tics-preview-changes">
              {plan.changes.length} to change
            </Badge>
            <Badge color="grey">{plan.unchanged} unchanged</Badge>
            <Badge color={plan.refused.length ? "red" : "grey"} data-testid="tics-preview-refused">
              {plan.refused.length} refused
            </Badge>
            <div className="ml-auto flex gap-x-2">
              <Btn
                variant="primary"
                disabled={plan.refused.length > 0 || plan.changes.length === 0 || running}
                busy={busy === "apply"}
                onClick={() => void apply("all")}
                testId="tics-apply"
              >
                Apply {plan.changes.length} changes
              </Btn>
              {plan.refused.length > 0 && plan.changes.length > 0 ? (
                <Btn disabled={running} onClick={() => void apply("valid_rows")} testId="tics-apply-valid">
                  Apply the {plan.changes.length} valid lines only
                </Btn>
              ) : null}
            </div>
          </div>
          {job ? (
            <JobProgress job={job} testId="tics-progress">
              <Note tone="error" testId="tics-changed">
                {!!job.changed?.length &&
                  `${job.changed.length} not written, their TIC changed after the check: ${job.changed
                    .slice(0, 20)
                    .map((c) => `line ${c.row}: ${c.reason}`)
                    .join("; ")}`}
              </Note>
            </JobProgress>
          ) : null}
          {plan.refused.length ? (
            <DataTable
              testId="tics-refused"
              headers={["Line", "Column", "Why refused"]}
              rows={plan.refused.slice(0, SHOWN)}
              rowKey={(r) => `${r.row}-${r.column}`}
              cells={(r) => [r.row, r.column, r.reason]}
            />
          ) : null}
          {plan.changes.length ? (
            <DataTable
              testId="tics-changes"
              headers={["Line", "Target", "Id or handle", "TIC now", "New TIC"]}
              rows={plan.changes.slice(0, SHOWN)}
              rowKey={(c) => c.row}
              cells={(c) => [c.row, c.target.replace("_", " "), c.ref, c.from ?? "—", c.to ?? "cleared"]}
            />
          ) : null}
          <Note tone="muted">
            {(plan.changes.length > SHOWN || plan.refused.length > SHOWN) && `The first ${SHOWN} lines of each list are shown.`}
          </Note>
        </Container>
      ) : null}
    </Page>
  )
}

export default TicsPage
