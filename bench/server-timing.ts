// The app's own view of each measured mutation (diagnostics channels of node:http): from the
// request's arrival to its answer's last byte handed to the OS, wall and CPU of this process.
import { subscribe } from "node:diagnostics_channel"
import { performance } from "node:perf_hooks"

export interface ServerTiming {
  serverMs: number
  serverCpuMs: number
  /** wall clock (epoch ms, fractional) when the answer finished */
  finishedAt: number
  startCpu: number
  endCpu: number
  startedAt: number
}

export const wallMs = () => performance.timeOrigin + performance.now()
export const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

export function serverTimings(match = /\/line-items\//): { last(): ServerTiming | undefined } {
  const began = new WeakMap<object, { t: number; cpu: number }>()
  let last: ServerTiming | undefined
  subscribe("http.server.request.start", (m) => {
    const { request, response } = m as { request: { url?: string }; response: object }
    if (match.test(request.url ?? "")) began.set(response, { t: wallMs(), cpu: cpuMs() })
  })
  subscribe("http.server.response.finish", (m) => {
    const { response } = m as { response: object }
    const b = began.get(response)
    if (!b) return
    const t = wallMs()
    const c = cpuMs()
    last = { serverMs: t - b.t, serverCpuMs: c - b.cpu, finishedAt: t, startCpu: b.cpu, endCpu: c, startedAt: b.t }
  })
  return { last: () => last }
}
