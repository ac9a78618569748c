/** One sandbox connection: the id in v3 paths, its API key, and the legacy v1 login id. */
export interface SandboxConnection {
  connectionId: string
  apiKey: string
  apiLoginId: string
}

/**
 * The connections the sandbox knows and the keys bound to them: ONE registry for v3 and v1. A key
 * grants exactly the connections it was configured for (normally one); it never reads another
 * connection's data. Besides the configured connections (fixed at start), `created` supplies the
 * connections made at run time (v1 CreatePlatformAccount, kept in the store): they are v3
 * connections too (their key works on their connectionId path).
 */
export class ConnectionRegistry {
  private readonly list: SandboxConnection[]
  private readonly byKey = new Map<string, SandboxConnection[]>()

  constructor(
    connections: SandboxConnection[],
    private readonly created: () => readonly SandboxConnection[] = () => [],
  ) {
    const seen = new Set<string>()
    this.list = []
    for (const c of connections) {
      if (seen.has(c.connectionId)) throw new Error(`connection ${c.connectionId} is configured twice`)
      seen.add(c.connectionId)
      this.list.push({ ...c })
      const arr = this.byKey.get(c.apiKey) ?? []
      arr.push(c)
      this.byKey.set(c.apiKey, arr)
    }
  }

  /** The configured connections (not those created at run time). */
  all(): SandboxConnection[] {
    return this.list.map((c) => ({ ...c }))
  }

  /** Connections granted to an API key (empty when the key is unknown). */
  forApiKey(apiKey: string | undefined | null): SandboxConnection[] {
    if (!apiKey) return []
    const configured = this.byKey.get(apiKey)
    if (configured) return configured
    return this.created().filter((c) => c.apiKey === apiKey)
  }

  /** Whether `apiKey` grants `connectionId`. */
  grants(apiKey: string, connectionId: string): boolean {
    return this.forApiKey(apiKey).some((c) => c.connectionId === connectionId)
  }

  /** Legacy v1 credentials (apiLoginID + apiKey) → the connection, or undefined. */
  forLogin(apiLoginId: string | undefined | null, apiKey: string | undefined | null): SandboxConnection | undefined {
    if (!apiLoginId || !apiKey) return undefined
    const login = String(apiLoginId).toLowerCase()
    const match = (c: SandboxConnection) => c.apiKey === apiKey && c.apiLoginId.toLowerCase() === login
    return this.list.find(match) ?? this.created().find(match)
  }

  get(connectionId: string): SandboxConnection | undefined {
    return this.list.find((c) => c.connectionId === connectionId) ?? this.created().find((c) => c.connectionId === connectionId)
  }
}

/** Hides a secret in logs and messages: never shows any of it. */
export function redact(secret: string | undefined | null): string {
  if (!secret) return ""
  return "[redacted]"
}
