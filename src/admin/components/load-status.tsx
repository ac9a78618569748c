import { Text } from "@medusajs/ui"

/** A widget's "Loading…" line while nothing is loaded yet, and its load error. */
export function LoadStatus({ loading, error }: { loading: boolean; error: string | undefined }) {
  return (
    <>
      {loading ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle">
          Loading…
        </Text>
      ) : null}
      {error ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-error">
          {error}
        </Text>
      ) : null}
    </>
  )
}
