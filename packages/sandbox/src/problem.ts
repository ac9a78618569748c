import type { ErrorDetail, Problem } from "@medusa-sales-tax/contract"

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  408: "Request Timeout",
  409: "Conflict",
  413: "Payload Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
}

export function statusTitle(status: number): string {
  return TITLES[status] ?? (status >= 500 ? "Server Error" : status >= 400 ? "Client Error" : "Status " + status)
}

/**
 * A business-rule or request failure raised by the domain layer or the HTTP layer. The HTTP layer
 * turns it into application/problem+json; the legacy (v1) layer turns it into ResponseType 0.
 */
export class SandboxError extends Error {
  readonly status: number
  readonly title: string
  readonly detail?: string
  readonly errors: ErrorDetail[]
  readonly headers: Record<string, string>
  constructor(status: number, detail?: string, errors: ErrorDetail[] = [], headers: Record<string, string> = {}) {
    super(detail ?? statusTitle(status))
    this.name = "SandboxError"
    this.status = status
    this.title = statusTitle(status)
    this.detail = detail
    this.errors = errors
    this.headers = headers
  }
  toProblem(): Problem {
    return problem(this.status, this.detail, this.errors)
  }
}

export function problem(status: number, detail?: string, errors?: ErrorDetail[]): Problem {
  const p: Problem = { type: "about:blank", title: statusTitle(status), status }
  if (detail) p.detail = detail
  if (errors && errors.length) p.errors = errors
  return p
}

export const notFound = (detail: string) => new SandboxError(404, detail)
export const unprocessable = (detail: string, errors: ErrorDetail[] = []) => new SandboxError(422, detail, errors)
export const badRequest = (detail: string, errors: ErrorDetail[] = []) => new SandboxError(400, detail, errors)
