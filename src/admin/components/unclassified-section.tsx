import { Badge, Button, Container, Heading, Input, Table, Text, toast } from "@medusajs/ui"
import { useEffect, useRef, useState } from "react"
import { Link } from "react-router-dom"
import { api, errorMessage } from "../lib/api"
import { useLoad } from "../lib/use-load"
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
  const [job, setJob] = useState<TicImportJob | null>(null)
  const timer = useRef<ReturnType<typeof setInterval> | null>(null)
  const { data, error, loading, reload } = useLoad(
    () => api<ListView>(`/admin/sales-tax/tics/unclassified?limit=${PAGE}&offset=${offset}`),
    [offset],
  )
  useEffect(() => () => void (timer.current && clearInterval(timer.current)), [])

  const poll = () => {
    if (timer.current) clearInterval(timer.current)
    timer.current = setInterval(async () => {
      const r = await api<{ job: TicImportJob | null }>("/admin/sales-tax/tics/import/apply").catch(() => null)
      setJob(r?.job ?? null)
      if (!r?.job || r.job.status !== "running") {
        if (timer.current) clearInterval(timer.current)
        timer.current = null
        await reload()
      }
    }, 500)
  }

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
      poll()
    } catch (e) {
      toast.error(errorMessage(e))
    }
  }

  const pct = job && job.total > 0 ? Math.round((job.done / job.total) * 100) : job?.status === "done" ? 100 : 0
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
      {job ? (
        <div data-testid="tics-unclassified-progress" data-status={job.status}>
          <div className="bg-ui-bg-subtle h-2 w-full overflow-hidden rounded">
            <div className="bg-ui-fg-interactive h-2" style={{ width: `${pct}%` }} />
          </div>
          <Text size="xsmall" className={job.status === "failed" ? "text-ui-fg-error" : "text-ui-fg-subtle"}>
            {job.status === "failed" ? job.error : `${job.done} of ${job.total} ${job.status === "done" ? "applied" : "applying…"}`}
          </Text>
        </div>
      ) : null}
      {data?.products.length ? (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Product</Table.HeaderCell>
              <Table.HeaderCell>Suggested TIC</Table.HeaderCell>
              <Table.HeaderCell>Or</Table.HeaderCell>
              <Table.HeaderCell />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {data.products.map((p) => {
              const s = p.suggestion
              return (
                <Table.Row key={p.id} data-testid={`tics-unclassified-${p.id}`}>
                  <Table.Cell className="whitespace-normal">{p.title ?? p.id}</Table.Cell>
                  <Table.Cell className="whitespace-normal">
                    {s ? (
                      <span className="flex items-center gap-x-2">
                        {`${s.tic} · ${s.label}`}
                        <Badge size="2xsmall" color={band(s.confidence)[0]}>{`${band(s.confidence)[1]} ${s.confidence.toFixed(2)}`}</Badge>
                      </span>
                    ) : (
                      <Text size="xsmall" className="text-ui-fg-subtle">
                        {p.note}
                      </Text>
                    )}
                  </Table.Cell>
                  <Table.Cell className="whitespace-normal">
                    {(s?.alternatives ?? []).map((a) => (
                      <Button
                        key={a.tic}
                        size="small"
                        variant="transparent"
                        disabled={running}
                        onClick={() => apply({ items: [{ product_id: p.id, tic: a.tic }] })}
                      >
                        {`${a.tic} · ${a.label}`}
                      </Button>
                    ))}
                  </Table.Cell>
                  <Table.Cell>
                    <span className="flex items-center gap-x-2">
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
                      <Link to={`/products/${p.id}`} className="text-ui-fg-interactive txt-compact-small hover:underline">
                        Choose another
                      </Link>
                    </span>
                  </Table.Cell>
                </Table.Row>
              )
            })}
          </Table.Body>
        </Table>
      ) : null}
      {data && data.count > PAGE ? (
        <div className="flex items-center justify-between">
          <Text
            size="xsmall"
            className="text-ui-fg-subtle"
          >{`${offset + 1}-${Math.min(offset + PAGE, data.count)} of ${data.count} · searches: ${data.searches.searched} made, ${data.searches.cached} cached`}</Text>
          <span className="flex gap-x-2">
            <Button
              size="small"
              variant="secondary"
              disabled={loading || offset === 0}
              onClick={() => setOffset(Math.max(0, offset - PAGE))}
            >
              Previous
            </Button>
            <Button
              size="small"
              variant="secondary"
              disabled={loading || offset + PAGE >= data.count}
              onClick={() => setOffset(offset + PAGE)}
            >
              Next
            </Button>
          </span>
        </div>
      ) : null}
    </Container>
  )
}
