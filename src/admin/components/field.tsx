import { Label, Text } from "@medusajs/ui"
import type { ReactNode } from "react"

/** A labelled form field with its validation message underneath. */
export function Field({
  label,
  name,
  error,
  children,
  hint,
}: {
  label: string
  name: string
  error?: string
  hint?: string
  children: ReactNode
}) {
  return (
    <div className="flex flex-col gap-y-1" data-field={name}>
      <Label size="xsmall" weight="plus" htmlFor={`st-${name}`}>
        {label}
      </Label>
      {children}
      {hint && !error ? (
        <Text size="xsmall" className="text-ui-fg-muted">
          {hint}
        </Text>
      ) : null}
      {error ? (
        <Text size="xsmall" className="text-ui-fg-error" data-testid={`error-${name}`}>
          {error}
        </Text>
      ) : null}
    </div>
  )
}
