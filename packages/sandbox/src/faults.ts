import type { FastifyReply, FastifyRequest } from "fastify"
import type { Fault } from "./controls"
import { SandboxError } from "./problem"

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** Sends a SandboxError as application/problem+json (its headers included). */
export function sendProblem(reply: FastifyReply, err: SandboxError): FastifyReply {
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v)
  return reply.code(err.status).type("application/problem+json").send(err.toProblem())
}

/**
 * Applies an injected fault to a request (v3 and v1 alike): waits `delayMs`, then drops the socket
 * (`drop`) or answers the fault's status as a problem. True when the fault answered (the caller
 * must not answer), false when it only delayed.
 */
export async function applyFault(f: Fault, req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  if (f.delayMs) await sleep(f.delayMs)
  if (f.drop) {
    reply.hijack()
    const sock = req.raw.socket as { destroy?: () => void } | undefined
    if (sock && typeof sock.destroy === "function") sock.destroy()
    else reply.raw.destroy()
    return true
  }
  if (f.status !== undefined) {
    const headers: Record<string, string> = {}
    if (f.retryAfter) headers["retry-after"] = f.retryAfter
    await sendProblem(reply, new SandboxError(f.status, `injected fault (${f.operation})`, [], headers))
    return true
  }
  return false
}
