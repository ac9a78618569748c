// The hooks every page and widget shares: a load with its error, a busy action, a polled job.
import { toast } from "@medusajs/ui"
import { useCallback, useEffect, useRef, useState } from "react"
import { api, errorMessage, fieldErrorsOf } from "./api"

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

/** A form's submit: `busy` while it runs; a failure's located messages in `errors`, any other to `onError`. */
export function useSubmit(onError?: (message: string) => void) {
  const [errors, setErrors] = useState<Record<string, string>>({})
  const { busy, run } = useBusy(onError)
  const submit = (fn: () => Promise<unknown>) =>
    run("submit", async () => {
      setErrors({})
      try {
        await fn()
      } catch (e) {
        const located = fieldErrorsOf(e)
        if (!Object.keys(located).length) throw e
        setErrors(located)
      }
    })
  return { busy: busy !== null, errors, setErrors, submit }
}

/**
 * A background job the server runs (`GET path` answers `{ [field]: job }`): a job given to `start`
 * is read again every `interval` ms while it runs, and `onDone` is called once it stops. A failed
 * read goes to `onError`, drops the job (its state is unknown) and calls `onDone`.
 */
export function useJob<J extends { status: string }>(
  path: string,
  field: string,
  interval: number,
  onDone?: () => unknown,
  onError: (m: string) => void = (m) => toast.error(m),
) {
  const [job, setJob] = useState<J | null>(null)
  const done = useRef(onDone)
  done.current = onDone
  useEffect(() => {
    if (job?.status !== "running") return
    const t = setTimeout(async () => {
      let next: J | null = null
      try {
        next = (await api<Record<string, J | null>>(path))[field] ?? null
      } catch (e) {
        onError(errorMessage(e))
      }
      setJob(next)
      if (next?.status !== "running") await done.current?.()
    }, interval)
    return () => clearTimeout(t)
  }, [job, path, field, interval])
  const start = (j: J | null) => {
    setJob(j)
    if (j && j.status !== "running") void done.current?.()
  }
  return { job, setJob, start }
}
