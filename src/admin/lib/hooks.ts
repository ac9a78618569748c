// The hooks the pages and widgets share: a load, a busy action, a form's submit, a polled job.
import { toast } from "@medusajs/ui"
import { useCallback, useEffect, useRef, useState } from "react"
import { api, errorMessage, fieldErrorsOf } from "./api"

const toastError = (m: string) => void toast.error(m)

/** Loads data on mount and on `reload()`; keeps the last good data while reloading; a stale answer is dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true })
  const seq = useRef(0)
  const reload = useCallback(async () => {
    const mine = ++seq.current
    setState((s) => ({ ...s, loading: true }))
    const next = await load().then(
      (data) => ({ data, error: undefined }),
      (e: unknown) => ({ error: errorMessage(e) }),
    )
    if (mine === seq.current) setState((s) => ({ ...s, ...next, loading: false }))
  }, deps)
  useEffect(() => void reload(), [reload])
  return { ...state, reload }
}

/** GETs an admin route's JSON as `useLoad` does, again whenever the path changes. */
export const useApi = <T>(path: string) => useLoad(() => api<T>(path), [path])

/**
 * `run(key, fn)`: `busy` is `key` while `fn` runs; a failure's message is `error` until the next run, and goes to `onError`
 * (a toast by default).
 */
export function useBusy<K extends string = string>(onError: ((message: string) => void) | null = toastError) {
  const [busy, setBusy] = useState<K | null>(null)
  const [error, setError] = useState<string | null>(null)
  const run = async (key: K, fn: () => Promise<unknown>): Promise<void> => {
    setBusy(key)
    setError(null)
    await fn().catch((e: unknown) => {
      setError(errorMessage(e))
      onError?.(errorMessage(e))
    })
    setBusy(null)
  }
  return { busy, run, error, setError }
}

/** A form's submit: `busy` while it runs; a failure's located messages in `errors`, any other to `onError`. */
export function useSubmit(onError?: (message: string) => void) {
  const [errors, setErrors] = useState<Record<string, string>>({})
  const { busy, run } = useBusy(onError)
  const submit = (fn: () => Promise<unknown>) =>
    run("submit", async () => {
      setErrors({})
      await fn().catch((e: unknown) => {
        const located = fieldErrorsOf(e)
        if (!Object.keys(located).length) throw e
        setErrors(located)
      })
    })
  return { busy: busy !== null, errors, setErrors, submit }
}

/**
 * A server's job (`GET path` answers `{ [field]: job }`): one given to `start` is read every `interval` ms while it runs, then
 * `onDone` is called. A failed read goes to `onError`, drops the job (its state is unknown) and calls `onDone`.
 */
export function useJob<J extends { status: string }>(
  path: string,
  field: string,
  interval: number,
  onDone?: () => unknown,
  onError: (m: string) => void = toastError,
) {
  const [job, setJob] = useState<J | null>(null)
  const done = useRef(onDone)
  done.current = onDone
  useEffect(() => {
    if (job?.status !== "running") return
    const t = setTimeout(async () => {
      const next = await api<Record<string, J | null>>(path).then(
        (r) => r[field] ?? null,
        (e: unknown) => (onError(errorMessage(e)), null),
      )
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
