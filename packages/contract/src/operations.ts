import { z } from "zod"
import * as v3 from "./v3"

/**
 * Every version 3 operation, once: method, path template (relative to the base URL), the schemas
 * of its parameters, query, body and success body, and its success status. The sandbox registers
 * its routes from this table and the client builds its calls from it, so the two cannot drift.
 */
export interface OperationDef {
  id: OperationId
  method: "GET" | "POST" | "PATCH" | "DELETE"
  path: string
  auth: boolean
  params?: z.ZodType
  query?: z.ZodType
  body?: z.ZodType
  response?: z.ZodType
  status: number
}

export const OPERATION_IDS = [
  "health",
  "calculateCarts",
  "cartToOrder",
  "getCart",
  "createCertificate",
  "getCertificate",
  "disableCertificate",
  "listCertificates",
  "createOrder",
  "getOrder",
  "voidOrder",
  "updateOrder",
  "refundOrder",
  "ping",
  "searchTics",
  "verifyAddress",
] as const
export type OperationId = (typeof OPERATION_IDS)[number]

const C = "/tax/connections/:connectionId"

export const OPERATIONS = {
  health: { id: "health", method: "GET", path: "/tax/health", auth: false, response: v3.HealthResponse, status: 200 },
  calculateCarts: {
    id: "calculateCarts",
    method: "POST",
    path: `${C}/carts`,
    auth: true,
    params: v3.ConnectionParams,
    body: v3.CalculateCartsRequest,
    response: v3.CalculateCartsResponse,
    status: 200,
  },
  cartToOrder: {
    id: "cartToOrder",
    method: "POST",
    path: `${C}/carts/orders`,
    auth: true,
    params: v3.ConnectionParams,
    body: v3.CartToOrderRequest,
    response: v3.OrderRecord,
    status: 201,
  },
  getCart: {
    id: "getCart",
    method: "GET",
    path: `${C}/carts/:cartId`,
    auth: true,
    params: v3.CartParams,
    response: v3.CartOut,
    status: 200,
  },
  createCertificate: {
    id: "createCertificate",
    method: "POST",
    path: `${C}/exemption-certificates`,
    auth: true,
    params: v3.ConnectionParams,
    body: v3.CreateCertificateRequest,
    response: v3.CertificateRecord,
    status: 201,
  },
  getCertificate: {
    id: "getCertificate",
    method: "GET",
    path: `${C}/exemption-certificates/:id`,
    auth: true,
    params: v3.CertificateParams,
    response: v3.CertificateRecord,
    status: 200,
  },
  disableCertificate: {
    id: "disableCertificate",
    method: "DELETE",
    path: `${C}/exemption-certificates/:id`,
    auth: true,
    params: v3.CertificateParams,
    status: 204,
  },
  listCertificates: {
    id: "listCertificates",
    method: "GET",
    path: "/tax/exemption-certificates",
    auth: true,
    query: v3.ListCertificatesQuery,
    response: v3.CertificateList,
    status: 200,
  },
  createOrder: {
    id: "createOrder",
    method: "POST",
    path: `${C}/orders`,
    auth: true,
    params: v3.ConnectionParams,
    query: v3.CreateOrderQuery,
    body: v3.CreateOrderRequest,
    response: v3.OrderRecord,
    status: 201,
  },
  getOrder: {
    id: "getOrder",
    method: "GET",
    path: `${C}/orders/:orderId`,
    auth: true,
    params: v3.OrderParams,
    query: v3.GetOrderQuery,
    response: v3.OrderRecord,
    status: 200,
  },
  voidOrder: { id: "voidOrder", method: "DELETE", path: `${C}/orders/:orderId`, auth: true, params: v3.OrderParams, status: 204 },
  updateOrder: {
    id: "updateOrder",
    method: "PATCH",
    path: `${C}/orders/:orderId`,
    auth: true,
    params: v3.OrderParams,
    body: v3.UpdateOrderRequest,
    response: v3.OrderRecord,
    status: 200,
  },
  refundOrder: {
    id: "refundOrder",
    method: "POST",
    path: `${C}/orders/refunds/:orderId`,
    auth: true,
    params: v3.OrderParams,
    body: v3.RefundRequest,
    response: v3.RefundResponse,
    status: 201,
  },
  ping: { id: "ping", method: "GET", path: `${C}/ping`, auth: true, params: v3.ConnectionParams, response: v3.PingResponse, status: 200 },
  searchTics: {
    id: "searchTics",
    method: "POST",
    path: "/tax/tic/search",
    auth: true,
    body: v3.TicSearchRequest,
    response: v3.TicSearchResponse,
    status: 200,
  },
  verifyAddress: {
    id: "verifyAddress",
    method: "POST",
    path: "/tax/verify-address",
    auth: true,
    body: v3.VerifyAddressRequest,
    response: v3.VerifyAddressResponse,
    status: 200,
  },
} satisfies Record<OperationId, OperationDef>

/** Header names. */
export const API_KEY_HEADER = "x-api-key"
export const SERVICE_WARNING_HEADER = "x-service-warning"
