// The shared pieces of the plugin's admin pages and widgets: page and section frames, links,
// load and error lines, a plain table, a busy action and a polled import job's progress.
import { Button, Container, Heading, Table, Text, toast } from "@medusajs/ui"
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react"
import { Link } from "react-router-dom"
import { api, errorMessage } from "../lib/api"
import type { TicImportJob } from "../../tics/medusa"

export function ErrorText({ error, testId, className = "" }: { error?: string | null; testId?: string; className?: string }) {
  return error ? (
    <Text size="small" className={`text-ui-fg-error ${className}`} data-testid={testId}>
      {error}
    </Text>
  ) : null
}

/** A widget's "Loading…" line while nothing is loaded yet, and its load error. */
export function LoadStatus({ loading, error }: { loading: boolean; error: string | undefined }) {
  return (
    <>
      {loading ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle">
          Loading…
        </Text>
      ) : null}
      <ErrorText error={error} className="px-6 py-4" />
    </>
  )
}

export function NavLink({ to, testId, children }: { to: string; testId?: string; children: ReactNode }) {
  return (
    <Link to={to} className="text-ui-fg-interactive txt-compact-small hover:underline" data-testid={testId}>
      {children}
    </Link>
  )
}

/** A settings page: its header (title, subtitle, actions), its load error, then its content. */
export function Page(props: {
  testId: string
  title: string
  subtitle: ReactNode
  actions?: ReactNode
  error?: string
  children?: ReactNode
}) {
  return (
    <div className="flex flex-col gap-y-3" data-testid={props.testId}>
      <Container className="flex flex-wrap items-center justify-between gap-4 px-6 py-4">
        <div>
          <Heading level="h1">{props.title}</Heading>
          {props.subtitle}
        </div>
        <div className="flex flex-wrap items-end gap-2">{props.actions}</div>
      </Container>
      {props.error ? (
        <Container className="px-6 py-4">
          <ErrorText error={props.error} />
        </Container>
      ) : null}
      {props.children}
    </div>
  )
}

export function Subtitle({ children }: { children: ReactNode }) {
  return (
    <Text size="small" className="text-ui-fg-subtle">
      {children}
    </Text>
  )
}

/** A section of a page: its heading, a subtitle or action on the right, the load error if any, then its content. */
export function SettingsSection(props: {
  testId: string
  title: string
  subtitle?: string
  action?: ReactNode
  error?: string | null
  children?: ReactNode
}) {
  return (
    <Container className="divide-y p-0" data-testid={props.testId}>
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">{props.title}</Heading>
        {props.subtitle ? (
          <Text size="xsmall" className="text-ui-fg-subtle">
            {props.subtitle}
          </Text>
        ) : null}
        {props.action}
      </div>
      <ErrorText error={props.error} className="px-6 py-4" />
      {props.children}
    </Container>
  )
}

/** A figure in a box: its label over its value. */
export function Figure({ label, value, testId, tone }: { label: string; value: string | number; testId: string; tone?: "error" }) {
  return (
    <div className="flex flex-col rounded-md border px-3 py-2" style={{ minWidth: 150 }} data-testid={testId}>
      <Text size="xsmall" className="text-ui-fg-subtle">
        {label}
      </Text>
      <Text size="large" weight="plus" className={tone === "error" ? "text-ui-fg-error" : undefined}>
        {value}
      </Text>
    </div>
  )
}

/** A label and its value, side by side. */
export function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="grid grid-cols-2 items-start gap-x-3 px-6 py-2">
      <Text size="small" weight="plus" className="min-w-0 break-words text-ui-fg-subtle">
        {label}
      </Text>
      <div className="min-w-0 break-words text-right" data-testid={testId}>
        {typeof children === "string" ? <Text size="small">{children}</Text> : children}
      </div>
    </div>
  )
}

/** A plain table: one header per column, one cell per column and row. */
export function DataTable<T>(props: {
  headers: ReactNode[]
  rows: readonly T[]
  rowKey: (row: T) => string | number
  cells: (row: T) => ReactNode[]
  testId?: string
  rowTestId?: (row: T) => string
  onRowClick?: (row: T) => void
  cellClassName?: string
}) {
  return (
    <Table data-testid={props.testId}>
      <Table.Header>
        <Table.Row>
          {props.headers.map((h, i) => (
            <Table.HeaderCell key={i}>{h}</Table.HeaderCell>
          ))}
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {props.rows.map((r) => (
          <Table.Row
            key={props.rowKey(r)}
            data-testid={props.rowTestId?.(r)}
            className={props.onRowClick ? "cursor-pointer" : undefined}
            onClick={props.onRowClick && (() => props.onRowClick!(r))}
          >
            {props.cells(r).map((c, i) => (
              <Table.Cell key={i} className={props.cellClassName ?? "whitespace-normal"}>
                {c}
              </Table.Cell>
            ))}
          </Table.Row>
        ))}
      </Table.Body>
    </Table>
  )
}

/** Previous / Next over `count` rows, `page` at a time. */
export function Pager(props: {
  offset: number
  page: number
  count: number
  go: (offset: number) => void
  disabled?: boolean
  nextTestId?: string
}) {
  return (
    <span className="flex gap-x-2">
      <Button
        size="small"
        variant="secondary"
        disabled={props.disabled || props.offset === 0}
        onClick={() => props.go(Math.max(0, props.offset - props.page))}
      >
        Previous
      </Button>
      <Button
        size="small"
        variant="secondary"
        disabled={props.disabled || props.offset + props.page >= props.count}
        onClick={() => props.go(props.offset + props.page)}
        data-testid={props.nextTestId}
      >
        Next
      </Button>
    </span>
  )
}

/**
 * `run(key, fn)`: `busy` is `key` while `fn` runs; a failure goes to `onError` (a toast by default).
 * One action at a time per hook.
 */
export function useBusy<K extends string = string>(onError: (message: string) => void = (m) => toast.error(m)) {
  const [busy, setBusy] = useState<K | null>(null)
  const run = async (key: K, fn: () => Promise<unknown>): Promise<void> => {
    setBusy(key)
    try {
      await fn()
    } catch (e) {
      onError(errorMessage(e))
    } finally {
      setBusy(null)
    }
  }
  return { busy, run }
}

/** The bulk TIC import job: `watch()` polls it every half second until it stops running, then calls `onDone`. */
export function useImportJob(onDone?: () => unknown, onError?: (message: string) => void) {
  const [job, setJob] = useState<TicImportJob | null>(null)
  const timer = useRef<ReturnType<typeof setInterval> | null>(null)
  const stop = () => {
    if (timer.current) clearInterval(timer.current)
    timer.current = null
  }
  useEffect(() => stop, [])
  const watch = useCallback(() => {
    stop()
    timer.current = setInterval(async () => {
      try {
        const r = await api<{ job: TicImportJob | null }>("/admin/sales-tax/tics/import/apply")
        setJob(r.job)
        if (!r.job || r.job.status !== "running") {
          stop()
          await onDone?.()
        }
      } catch (e) {
        if (!onError) {
          setJob(null)
          stop()
          await onDone?.()
        } else onError(errorMessage(e))
      }
    }, 500)
  }, [onDone, onError])
  return { job, setJob, watch }
}

export function JobProgress({ job, testId, children }: { job: TicImportJob; testId: string; children?: ReactNode }) {
  const pct = job.total > 0 ? Math.round((job.done / job.total) * 100) : job.status === "done" ? 100 : 0
  return (
    <div data-testid={testId} data-status={job.status}>
      <div className="bg-ui-bg-subtle h-2 w-full overflow-hidden rounded">
        <div className="bg-ui-fg-interactive h-2" style={{ width: `${pct}%` }} />
      </div>
      <Text size="xsmall" className={job.status === "failed" ? "text-ui-fg-error" : "text-ui-fg-subtle"}>
        {job.status === "failed" ? job.error : `${job.done} of ${job.total} ${job.status === "done" ? "applied" : "applying…"}`}
      </Text>
      {children}
    </div>
  )
}
