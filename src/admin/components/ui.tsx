// The shared pieces of the admin pages and widgets, so that a page or widget says only what it shows.
import { Badge, Button, Container, Heading, Input, Label, Select, Table, Text, Textarea, clx } from "@medusajs/ui"
import type { ComponentProps, ReactNode } from "react"
import { Link } from "react-router-dom"

type Tone = "subtle" | "muted" | "error"
const TONE: Record<Tone, string> = { subtle: "text-ui-fg-subtle", muted: "text-ui-fg-muted", error: "text-ui-fg-error" }

/** Text in one of the admin's tones (extra-small unless told); nothing without content. */
export function Note(props: { children: ReactNode; tone?: Tone; size?: "xsmall" | "small"; testId?: string; className?: string }) {
  if (props.children == null || props.children === false || props.children === "") return null
  return (
    <Text size={props.size ?? "xsmall"} className={clx(props.tone && TONE[props.tone], props.className)} data-testid={props.testId}>
      {props.children}
    </Text>
  )
}

export const ErrorText = ({ error, ...props }: { error?: string | null; testId?: string; className?: string }) => (
  <Note tone="error" size="small" {...props}>
    {error}
  </Note>
)

export const Strong = (props: { children: ReactNode; className?: string }) => <Text size="small" weight="plus" {...props} />

/** A line that says a list is empty, or what a section shows instead of its content. */
export const Empty = (props: { children: ReactNode; testId?: string }) => (
  <Note tone="subtle" size="small" className="px-6 py-4" {...props} />
)

/** The plugin's button: small, secondary unless told, its spinner while `busy`. */
export function Btn({
  busy,
  testId,
  variant = "secondary",
  ...props
}: Omit<ComponentProps<typeof Button>, "size"> & { busy?: boolean; testId?: string }) {
  return <Button size="small" variant={variant} isLoading={busy} data-testid={testId} {...props} />
}

export const NavLink = ({ testId, ...props }: { to: string; testId?: string; children: ReactNode }) => (
  <Link className="text-ui-fg-interactive txt-compact-small hover:underline" data-testid={testId} {...props} />
)

/** A heading with the line under it (a string is set as a subtle note). */
const Titled = (props: { level: "h1" | "h2"; title: ReactNode; subtitle?: ReactNode }) => (
  <div>
    <Heading level={props.level}>{props.title}</Heading>
    {typeof props.subtitle === "string" ? (
      <Note tone="subtle" size="small">
        {props.subtitle}
      </Note>
    ) : (
      props.subtitle
    )}
  </div>
)

/** What a page or section shows of its load (useLoad's answer): its error, "Loading…" until its first data. */
type Load = { data?: unknown; loading: boolean; error?: string; reload: () => unknown }
type Frame = { testId?: string; title: ReactNode; subtitle?: ReactNode; actions?: ReactNode; children?: ReactNode }

/** A settings page: its header (title, subtitle, actions, Refresh when it has a load), its error, then its content. */
export function Page(props: Frame & { load?: Load; refreshTestId?: string; error?: string | null }) {
  const { load } = props
  const error = load?.error ?? props.error
  return (
    <div className="flex flex-col gap-y-3" data-testid={props.testId}>
      <Container className="flex flex-wrap items-center justify-between gap-4 px-6 py-4">
        <Titled level="h1" title={props.title} subtitle={props.subtitle} />
        <div className="flex flex-wrap items-end gap-2">
          {props.actions}
          {load ? (
            <Btn busy={load.loading} onClick={() => load.reload()} testId={props.refreshTestId}>
              Refresh
            </Btn>
          ) : null}
        </div>
      </Container>
      {error ? (
        <Container className="px-6 py-4">
          <ErrorText error={error} />
        </Container>
      ) : null}
      {props.children}
    </div>
  )
}

/** A section of a page, or a widget; `subtitle` goes under its heading, `aside` beside it. */
export function Section(props: Frame & { aside?: string; load?: Omit<Load, "reload"> }) {
  const { load } = props
  return (
    <Container className="divide-y p-0" data-testid={props.testId}>
      <div className="flex items-center justify-between px-6 py-4">
        <Titled level="h2" title={props.title} subtitle={props.subtitle} />
        <Note tone="subtle">{props.aside}</Note>
        {props.actions ? <div className="flex items-center gap-x-2">{props.actions}</div> : null}
      </div>
      {load?.loading && load.data === undefined ? <Empty>Loading…</Empty> : null}
      <ErrorText error={load?.error} className="px-6 py-4" />
      {props.children}
    </Container>
  )
}

/** A figure in a box: its label over its value. */
export const Figure = ({ label, value, testId, tone }: { label: string; value: string | number; testId: string; tone?: "error" }) => (
  <div className="flex flex-col rounded-md border px-3 py-2" style={{ minWidth: 150 }} data-testid={testId}>
    <Note tone="subtle">{label}</Note>
    <Text size="large" weight="plus" className={tone && TONE[tone]}>
      {value}
    </Text>
  </div>
)

export const Row = ({ label, children, testId }: { label: ReactNode; children: ReactNode; testId?: string }) => (
  <div className="grid grid-cols-2 items-start gap-x-3 px-6 py-2">
    <Strong className="min-w-0 break-words text-ui-fg-subtle">{label}</Strong>
    <div className="min-w-0 break-words text-right" data-testid={testId}>
      {typeof children === "string" ? <Text size="small">{children}</Text> : children}
    </div>
  </div>
)

/** A table of `rows`, one cell per header; `right` lists the right-aligned columns; its `empty` line instead when it has no row. */
export function DataTable<T>(props: {
  headers: ReactNode[]
  rows: readonly T[]
  empty?: ReactNode
  emptyTestId?: string
  rowKey: (row: T) => string | number
  cells: (row: T) => ReactNode[]
  testId?: string
  rowTestId?: (row: T) => string
  rowStatus?: (row: T) => string
  onRowClick?: (row: T) => void
  right?: number[]
}) {
  const align = (i: number) => (props.right?.includes(i) ? "text-right" : undefined)
  if (!props.rows.length && props.empty) return <Empty testId={props.emptyTestId}>{props.empty}</Empty>
  return (
    <Table data-testid={props.testId}>
      <Table.Header>
        <Table.Row>
          {props.headers.map((h, i) => (
            <Table.HeaderCell key={i} className={align(i)}>
              {h}
            </Table.HeaderCell>
          ))}
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {props.rows.map((r) => (
          <Table.Row
            key={props.rowKey(r)}
            data-testid={props.rowTestId?.(r)}
            data-status={props.rowStatus?.(r)}
            className={props.onRowClick ? "cursor-pointer" : undefined}
            onClick={props.onRowClick && (() => props.onRowClick!(r))}
          >
            {props.cells(r).map((c, i) => (
              <Table.Cell key={i} className={align(i)}>
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
  const { offset, page, count, go, disabled } = props
  return (
    <span className="flex gap-x-2">
      <Btn disabled={disabled || offset === 0} onClick={() => go(Math.max(0, offset - page))}>
        Previous
      </Btn>
      <Btn disabled={disabled || offset + page >= count} onClick={() => go(offset + page)} testId={props.nextTestId}>
        Next
      </Btn>
    </span>
  )
}

export type Options = readonly (string | readonly [string, string])[]
type FieldProps = Pick<ComponentProps<typeof Input>, "type" | "placeholder" | "onBlur" | "onKeyDown"> & {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  options?: Options
  multiline?: boolean
  hint?: string
  error?: string
  errorTestId?: string
  testId?: string
  small?: boolean
  width?: number
}

/** A labelled select of `options`, text area when `multiline`, or input (its id its test id unless told); its error, or hint, under it. */
export function Field(props: FieldProps) {
  const { id, value, onChange, error, placeholder, testId = id } = props
  return (
    <div className="flex min-w-0 flex-col gap-y-1" style={props.width ? { width: props.width } : undefined}>
      <Label size={props.small ? "xsmall" : "small"} htmlFor={id}>
        {props.label}
      </Label>
      {props.options ? (
        <Choice {...{ id, testId, value, onChange, placeholder }} options={props.options} invalid={!!error} />
      ) : props.multiline ? (
        <Textarea id={id} value={value} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <Input
          {...{ id, value, placeholder, type: props.type, onBlur: props.onBlur, onKeyDown: props.onKeyDown }}
          size="small"
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={!!error}
          data-testid={testId}
        />
      )}
      <Note tone={error ? "error" : "muted"} testId={error ? props.errorTestId : undefined}>
        {error || props.hint}
      </Note>
    </div>
  )
}

/** A select of `options` ([value, label] pairs, or values shown as they are); `label` names it to assistive technology. */
export function Choice(
  props: Pick<FieldProps, "value" | "onChange" | "placeholder" | "testId"> & {
    options: Options
    id?: string
    invalid?: boolean
    label?: string
  },
) {
  return (
    <Select size="small" value={props.value || undefined} onValueChange={props.onChange}>
      <Select.Trigger id={props.id} data-testid={props.testId} aria-invalid={props.invalid} aria-label={props.label}>
        <Select.Value placeholder={props.placeholder} />
      </Select.Trigger>
      <Select.Content>
        {props.options.map((o) => {
          const [value, label] = typeof o === "string" ? [o, o] : o
          return (
            <Select.Item key={value} value={value}>
              {label}
            </Select.Item>
          )
        })}
      </Select.Content>
    </Select>
  )
}

export type BadgeColor = "green" | "blue" | "orange" | "red" | "grey" | "purple"

export const Tag = ({ color, children, testId, title }: { color: BadgeColor; children: ReactNode; testId?: string; title?: string }) => (
  <Badge size="2xsmall" color={color} data-testid={testId} title={title}>
    {children}
  </Badge>
)

/** A progress bar: `done` of `total` (a finished job without a total is full). */
export function Progress({ done = 0, total = 0, finished }: { done?: number; total?: number; finished: boolean }) {
  const pct = total > 0 ? Math.round((done / total) * 100) : finished ? 100 : 0
  return (
    <div
      className="h-2 w-full overflow-hidden rounded-full bg-ui-bg-subtle"
      role="progressbar"
      aria-valuenow={pct}
      aria-valuemin={0}
      aria-valuemax={100}
    >
      <div className="h-2 rounded-full bg-ui-fg-interactive" style={{ width: `${pct}%` }} />
    </div>
  )
}
