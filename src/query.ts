// The plugin's one typed door to Medusa's Query. A plugin has no generated entry points, so Query's
// `data` is `any[]`: the caller names the rows' shape (exactly the fields asked for), typed here once.
import type { MedusaContainer, Query, RemoteQueryFunctionReturnPagination } from "@medusajs/framework/types"
import type { ContainerRegistrationKeys } from "@medusajs/framework/utils"

/** Medusa's key of Query, typed as its declared literal (importing the value would load all of Medusa's utils). */
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

/** `query.graph` with the rows typed as `T` (the shape of `fields`) and, when paginated, Medusa's count. */
export async function graphPage<T>(
  scope: QueryScope,
  input: GraphInput,
): Promise<{ data: T[]; metadata?: RemoteQueryFunctionReturnPagination }> {
  const { data, metadata } = await scope.resolve<Query>(QUERY_KEY).graph({ ...input, fields: [...input.fields] })
  return { data: data as T[], metadata }
}

export async function graph<T>(scope: QueryScope, input: GraphInput): Promise<T[]> {
  return (await graphPage<T>(scope, input)).data
}
