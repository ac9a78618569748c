import { useCallback, useEffect, useRef, useState } from "react"
import { errorMessage } from "./api"

/** Loads data on mount and on `reload()`; keeps the last good data while reloading. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  const [loading, setLoading] = useState(true)
  const seq = useRef(0)
  const run = useCallback(async () => {
    const mine = ++seq.current
    setLoading(true)
    try {
      const d = await load()
      if (mine === seq.current) {
        setData(d)
        setError(undefined)
      }
    } catch (e) {
      if (mine === seq.current) setError(errorMessage(e))
    } finally {
      if (mine === seq.current) setLoading(false)
    }
    // the caller's deps decide when to load again (as useEffect's own list)
  }, deps)
  useEffect(() => {
    void run()
  }, [run])
  return { data, error, loading, reload: run }
}
