import { Badge, Container, Text } from "@medusajs/ui"
import { useState } from "react"
import { downloadFile, post } from "../../../../lib/api"
import { useBusy, useJob } from "../../../../lib/hooks"
import type { ImportPlan } from "../../../../../tics/bulk"
import type { TicImportJob } from "../../../../../tics/medusa"
import { UnclassifiedSection } from "../../../../components/unclassified-section"
import { Btn, DataTable, ErrorText, JobProgress, NavLink, Note, Page } from "../../../../components/ui"

const SHOWN = 200

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
    await run("preview", async () => {
      setPlan((await post<{ plan: ImportPlan }>("/admin/sales-tax/tics/import", { csv: text })).plan)
    })
  }

  const apply = (mode: "all" | "valid_rows") =>
    run("apply", async () => {
      const body = { csv: csv?.text, mode, ...(plan ? { preview_hash: plan.hash } : {}) }
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
              {job.changed?.length ? (
                <Note tone="error" testId="tics-changed">
                  {`${job.changed.length} not written, their TIC changed after the check: `}
                  {job.changed
                    .slice(0, 20)
                    .map((c) => `line ${c.row}: ${c.reason}`)
                    .join("; ")}
                </Note>
              ) : null}
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
          {plan.changes.length > SHOWN || plan.refused.length > SHOWN ? (
            <Note tone="muted">The first {SHOWN} lines of each list are shown.</Note>
          ) : null}
        </Container>
      ) : null}
    </Page>
  )
}

export default TicsPage
