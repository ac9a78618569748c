/**
 * The plugin's one typed door to Medusa's Query (`query.graph`). A plugin is compiled without the
 * app's generated entry points, so Query's `data` is `any[]`, and even a typed entry is the whole
 * entity, not the fields asked for: the caller names the rows' shape (a local interface of exactly
 * those fields, or a `Pick` of Medusa's DTO), and this file is the one place `any[]` becomes it.
 */
import type { MedusaContainer, Query, RemoteQueryFunctionReturnPagination } from "@medusajs/framework/types"
import type { ContainerRegistrationKeys } from "@medusajs/framework/utils"

/**
 * Medusa's container key of Query, typed as its declared literal: a renamed key fails the typecheck,
 * and query.test.ts compares it with the installed one (importing the value would load Medusa's
 * utils, the whole package, into every file that reads an entity).
 */
export const QUERY_KEY: (typeof ContainerRegistrationKeys)["QUERY"] = "query"

/** What resolves Medusa's Query: the container, a request's `req.scope`. */
export type QueryScope = Pick<MedusaContainer, "resolve">

/** A `query.graph` input (the fields of Medusa's `RemoteQueryInput` this plugin uses). */
export interface GraphInput {
  /** the entity's Query name: "order", "product", "order_claim", "sales_channel", … */
  entity: string
  /** the fields and relations to read ("items.*", "payment_collections.payments.refunds.id", …) */
  fields: readonly string[]
  filters?: Record<string, unknown>
  pagination?: { skip?: number; take?: number; order?: Record<string, "ASC" | "DESC"> }
  withDeleted?: boolean
}

/** The rows and, when paginated, Medusa's count. */
export interface GraphPage<T> {
  data: T[]
  metadata?: RemoteQueryFunctionReturnPagination
}

/** Medusa's Query from a container or request scope. */
export function queryOf(scope: QueryScope): Query {
  return scope.resolve<Query>(QUERY_KEY)
}

/**
 * `query.graph` with the rows typed as `T` (the shape of `fields`; see the file's comment) and
 * the page metadata.
 */
export async function graphPage<T>(scope: QueryScope, input: GraphInput): Promise<GraphPage<T>> {
  const { data, metadata } = await queryOf(scope).graph({ ...input, fields: [...input.fields] })
  // Query's rows are `any[]` in a plugin (no generated entry points): typed here, once
  const rows: T[] = data
  return { data: rows, metadata }
}

/** `query.graph`'s rows, typed as `T`. */
export async function graph<T>(scope: QueryScope, input: GraphInput): Promise<T[]> {
  return (await graphPage<T>(scope, input)).data
}
