import { Container, Heading, Text } from "@medusajs/ui"
import type { ReactNode } from "react"

/** A section of Settings → Sales Tax: its heading and one-line subtitle, the load error if any, then its content. */
export function SettingsSection(props: { testId: string; title: string; subtitle: string; error?: string | null; children?: ReactNode }) {
  return (
    <Container className="divide-y p-0" data-testid={props.testId}>
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">{props.title}</Heading>
        <Text size="xsmall" className="text-ui-fg-subtle">
          {props.subtitle}
        </Text>
      </div>
      {props.error ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-error">
          {props.error}
        </Text>
      ) : null}
      {props.children}
    </Container>
  )
}
