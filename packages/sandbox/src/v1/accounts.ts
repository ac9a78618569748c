import { randomBytes, randomUUID } from "node:crypto"
import type { SandboxConnection } from "../connections"
import type { SandboxStore } from "../store"

/** A business location of a platform account (GetLocations). */
export interface V1LocationRecord {
  LocationID: number
  Name: string
  Address1: string
  Address2: string | null
  City: string
  State: string
  Zip5: number
  Zip4: number | null
  Country: string
  MailingAddress: boolean
  PrimaryBusinessAddress: boolean
  Created: string
}

export interface V1Account {
  connection: SandboxConnection
  name: string | null
  created: string
  locations: V1LocationRecord[]
}

/** Store collection "accounts", under this one pseudo-connection key. */
export const ACCOUNTS_KEY = "platform"

/** The connections of the platform accounts in the store (for the connection registry). */
export function accountConnections(store: SandboxStore): SandboxConnection[] {
  return store.list<V1Account>("accounts", [ACCOUNTS_KEY]).map((a) => a.connection)
}

/**
 * Platform accounts made by CreatePlatformAccount. Each is a connection of the one registry
 * (usable through v1 with its login id and key, and through v3 with its key on its connectionId),
 * kept in the store: journaled with --data-dir, cleared by /_sandbox/reset like other data.
 */
export class V1Accounts {
  constructor(private readonly store: SandboxStore) {}

  create(name: string | null, locations: Omit<V1LocationRecord, "LocationID" | "Created">[], now: Date): V1Account {
    const created = now.toISOString()
    const account: V1Account = {
      connection: {
        connectionId: randomUUID(),
        apiLoginId: randomBytes(4).toString("hex").toUpperCase(),
        apiKey: randomUUID().toUpperCase(),
      },
      name,
      created,
      locations: locations.map((l, i) => ({ ...l, LocationID: i + 1, Created: created })),
    }
    this.store.commit([{ op: "put", coll: "accounts", conn: ACCOUNTS_KEY, id: account.connection.connectionId, value: account }])
    return account
  }

  forConnection(connectionId: string): V1Account | undefined {
    return this.store.get<V1Account>("accounts", ACCOUNTS_KEY, connectionId)
  }
}
