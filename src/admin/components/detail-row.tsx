import { Text } from "@medusajs/ui"

/** A label and its value, side by side (the order filing widget's rows). */
export function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
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
