import { randomBytes, randomUUID } from "node:crypto"
import type { SandboxConnection } from "../connections"

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

/**
 * Platform accounts made by CreatePlatformAccount. They live in memory for the life of the
 * sandbox process (not in the journal, not cleared by /_sandbox/reset) and are usable through
 * version 1 only: the v3 connection registry is fixed at start (see docs/sandbox-v1.md).
 */
export class V1Accounts {
  private readonly accounts: V1Account[] = []

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
    this.accounts.push(account)
    return account
  }

  /** The account with these v1 credentials (login id compared case-insensitively), if any. */
  forLogin(apiLoginId: string, apiKey: string): V1Account | undefined {
    const login = apiLoginId.toLowerCase()
    return this.accounts.find((a) => a.connection.apiKey === apiKey && a.connection.apiLoginId.toLowerCase() === login)
  }

  forConnection(connectionId: string): V1Account | undefined {
    return this.accounts.find((a) => a.connection.connectionId === connectionId)
  }
}
