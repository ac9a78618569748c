import { Badge, Button, Container, Heading, Table, Text } from "@medusajs/ui"
import { useEffect, useRef, useState } from "react"
import { Link } from "react-router-dom"
import { api, errorMessage } from "../../../../lib/api"
import { downloadFile } from "../../../../lib/download"
import type { ImportPlan } from "../../../../../tics/bulk"
import type { TicImportJob } from "../../../../../tics/medusa"
import { UnclassifiedSection } from "../../../../components/unclassified-section"

const SHOWN = 200

/** Settings → Sales Tax → TICs: the catalogue's TICs as CSV, the unclassified products with suggestions, and a CSV import with a dry run (src/tics). */
const TicsPage = () => {
  const [csv, setCsv] = useState<string | null>(null)
  const [fileName, setFileName] = useState<string>("")
  const [plan, setPlan] = useState<ImportPlan | null>(null)
  const [job, setJob] = useState<TicImportJob | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState<"export" | "preview" | "apply" | null>(null)
  const timer = useRef<ReturnType<typeof setInterval> | null>(null)

  useEffect(() => () => void (timer.current && clearInterval(timer.current)), [])

  const run = async (what: "export" | "preview" | "apply", fn: () => Promise<void>) => {
    setBusy(what)
    setError(null)
    try {
      await fn()
    } catch (e) {
      setError(errorMessage(e))
    } finally {
      setBusy(null)
    }
  }

  const onFile = async (file: File | undefined) => {
    setPlan(null)
    setJob(null)
    if (!file) return
    const text = await file.text()
    setCsv(text)
    setFileName(file.name)
    await run("preview", async () => {
      const r = await api<{ plan: ImportPlan }>("/admin/sales-tax/tics/import", { method: "POST", body: { csv: text } })
      setPlan(r.plan)
    })
  }

  const poll = () => {
    if (timer.current) clearInterval(timer.current)
    timer.current = setInterval(async () => {
      try {
        const r = await api<{ job: TicImportJob | null }>("/admin/sales-tax/tics/import/apply")
        setJob(r.job)
        if (!r.job || r.job.status !== "running") {
          if (timer.current) clearInterval(timer.current)
          timer.current = null
        }
      } catch (e) {
        setError(errorMessage(e))
      }
    }, 500)
  }

  const apply = (mode: "all" | "valid_rows") =>
    run("apply", async () => {
      const r = await api<{ job: TicImportJob }>("/admin/sales-tax/tics/import/apply", {
        method: "POST",
        body: { csv, mode, ...(plan ? { preview_hash: plan.hash } : {}) },
      })
      setJob(r.job)
      poll()
    })

  const pct = job && job.total > 0 ? Math.round((job.done / job.total) * 100) : job?.status === "done" ? 100 : 0

  return (
    <div className="flex flex-col gap-y-3" data-testid="tics-page">
      <Container className="flex items-center justify-between gap-x-4 px-6 py-4">
        <div>
          <Heading level="h1">TICs for the whole catalogue</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            Export every product with the TIC it has and the TIC it resolves to; import a CSV that sets TICs on products, product types or
            categories by id or handle (columns target, id or handle, tic; an empty tic clears). The import is checked first and applied as
            one change: nothing is half-applied.
          </Text>
        </div>
        <div className="flex items-center gap-x-2">
          <Link to="/settings/sales-tax" className="text-ui-fg-interactive txt-compact-small hover:underline">
            Sales Tax
          </Link>
          <Button
            size="small"
            variant="secondary"
            isLoading={busy === "export"}
            onClick={() => run("export", () => downloadFile("/admin/sales-tax/tics/export", "sales-tax-product-tics.csv"))}
            data-testid="tics-export"
          >
            Export CSV
          </Button>
        </div>
      </Container>
      <UnclassifiedSection />
      <Container className="flex flex-col gap-y-2 px-6 py-4">
        <label className="txt-compact-small flex items-center gap-x-2">
          <span>Import a CSV file</span>
          <input type="file" accept=".csv,text/csv" onChange={(e) => void onFile(e.target.files?.[0])} data-testid="tics-import-file" />
        </label>
        {busy === "preview" ? <Text size="small">Checking {fileName}…</Text> : null}
        {error ? (
          <Text size="small" className="text-ui-fg-error" data-testid="tics-error">
            {error}
          </Text>
        ) : null}
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
              <Button
                size="small"
                disabled={plan.refused.length > 0 || plan.changes.length === 0 || job?.status === "running"}
                isLoading={busy === "apply"}
                onClick={() => void apply("all")}
                data-testid="tics-apply"
              >
                Apply {plan.changes.length} changes
              </Button>
              {plan.refused.length > 0 && plan.changes.length > 0 ? (
                <Button
                  size="small"
                  variant="secondary"
                  disabled={job?.status === "running"}
                  onClick={() => void apply("valid_rows")}
                  data-testid="tics-apply-valid"
                >
                  Apply the {plan.changes.length} valid lines only
                </Button>
              ) : null}
            </div>
          </div>
          {job ? (
            <div data-testid="tics-progress" data-status={job.status}>
              <div className="bg-ui-bg-subtle h-2 w-full overflow-hidden rounded">
                <div className="bg-ui-fg-interactive h-2" style={{ width: `${pct}%` }} />
              </div>
              <Text size="xsmall" className={job.status === "failed" ? "text-ui-fg-error" : "text-ui-fg-subtle"}>
                {job.status === "failed" ? job.error : `${job.done} of ${job.total} ${job.status === "done" ? "applied" : "applying…"}`}
              </Text>
              {job.changed?.length ? (
                <Text size="xsmall" className="text-ui-fg-error" data-testid="tics-changed">
                  {`${job.changed.length} not written, their TIC changed after the check: `}
                  {job.changed
                    .slice(0, 20)
                    .map((c) => `line ${c.row}: ${c.reason}`)
                    .join("; ")}
                </Text>
              ) : null}
            </div>
          ) : null}
          {plan.refused.length ? (
            <Table data-testid="tics-refused">
              <Table.Header>
                <Table.Row>
                  <Table.HeaderCell>Line</Table.HeaderCell>
                  <Table.HeaderCell>Column</Table.HeaderCell>
                  <Table.HeaderCell>Why refused</Table.HeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {plan.refused.slice(0, SHOWN).map((r) => (
                  <Table.Row key={`${r.row}-${r.column}`}>
                    <Table.Cell>{r.row}</Table.Cell>
                    <Table.Cell>{r.column}</Table.Cell>
                    <Table.Cell className="whitespace-normal">{r.reason}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table>
          ) : null}
          {plan.changes.length ? (
            <Table data-testid="tics-changes">
              <Table.Header>
                <Table.Row>
                  <Table.HeaderCell>Line</Table.HeaderCell>
                  <Table.HeaderCell>Target</Table.HeaderCell>
                  <Table.HeaderCell>Id or handle</Table.HeaderCell>
                  <Table.HeaderCell>TIC now</Table.HeaderCell>
                  <Table.HeaderCell>New TIC</Table.HeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {plan.changes.slice(0, SHOWN).map((c) => (
                  <Table.Row key={c.row}>
                    <Table.Cell>{c.row}</Table.Cell>
                    <Table.Cell>{c.target.replace("_", " ")}</Table.Cell>
                    <Table.Cell>{c.ref}</Table.Cell>
                    <Table.Cell>{c.from ?? "—"}</Table.Cell>
                    <Table.Cell>{c.to ?? "cleared"}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table>
          ) : null}
          {plan.changes.length > SHOWN || plan.refused.length > SHOWN ? (
            <Text size="xsmall" className="text-ui-fg-muted">
              The first {SHOWN} lines of each list are shown.
            </Text>
          ) : null}
        </Container>
      ) : null}
    </div>
  )
}

export default TicsPage
