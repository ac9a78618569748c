import { z } from "zod"
import {
  Address,
  CartId,
  ConnectionId,
  Currency,
  CustomerId,
  DateTime,
  OrderId,
  Price,
  Quantity,
  QueryBool,
  QueryInt,
  StateCode,
  Tax,
} from "./common"

// ---------------------------------------------------------------------------------------------
// Carts
// ---------------------------------------------------------------------------------------------

export const CartLineItemIn = z.object({
  index: z.number().int().nonnegative(),
  itemId: z.string().min(1).max(100),
  price: Price,
  quantity: Quantity,
  tic: z.number().int().nonnegative().nullish(),
  productId: z.string().max(100).nullish(),
})
export type CartLineItemIn = z.infer<typeof CartLineItemIn>

export const ExemptionIn = z.object({
  exemptionId: z.uuid("exemptionId must be a UUID").nullish(),
  isExempt: z.boolean().nullish(),
})
export type ExemptionIn = z.infer<typeof ExemptionIn>

export const CartIn = z.object({
  cartId: CartId.optional(),
  customerId: CustomerId,
  currency: Currency,
  deliveredBySeller: z.boolean().optional(),
  origin: Address,
  destination: Address,
  exemption: ExemptionIn.optional(),
  lineItems: z.array(CartLineItemIn).min(1, "a cart needs at least one line item"),
})
export type CartIn = z.infer<typeof CartIn>

export const CalculateCartsRequest = z.object({
  items: z.array(CartIn).min(1, "items must hold at least one cart").max(100),
  transactionDate: DateTime.optional(),
})
export type CalculateCartsRequest = z.infer<typeof CalculateCartsRequest>

export const LineItemOut = z.object({
  index: z.number(),
  itemId: z.string(),
  price: z.number(),
  quantity: z.number(),
  tic: z.number().nullable(),
  tax: Tax,
})
export type LineItemOut = z.infer<typeof LineItemOut>

export const ExemptionOut = z.object({
  exemptionId: z.string().nullable(),
  isExempt: z.boolean().nullable(),
  /** "Exempt--No certificate" when isExempt found no matching certificate. */
  flag: z.string().nullable().optional(),
})
export type ExemptionOut = z.infer<typeof ExemptionOut>

export const CartOut = z.object({
  cartId: z.string(),
  customerId: z.string(),
  currency: Currency,
  deliveredBySeller: z.boolean(),
  origin: Address,
  destination: Address,
  exemption: ExemptionOut,
  lineItems: z.array(LineItemOut),
})
export type CartOut = z.infer<typeof CartOut>

export const CalculateCartsResponse = z.object({
  connectionId: z.string(),
  transactionDate: z.string(),
  items: z.array(CartOut),
})
export type CalculateCartsResponse = z.infer<typeof CalculateCartsResponse>

// ---------------------------------------------------------------------------------------------
// Orders
// ---------------------------------------------------------------------------------------------

export const CartToOrderRequest = z.object({
  cartId: CartId,
  orderId: OrderId,
  completed: z.boolean(),
  completedDate: DateTime.optional(),
})
export type CartToOrderRequest = z.infer<typeof CartToOrderRequest>

export const OrderLineItemIn = CartLineItemIn.extend({ tax: Tax })
export type OrderLineItemIn = z.infer<typeof OrderLineItemIn>

export const OrderKind = z.enum(["order", "credit"])

export const CreateOrderRequest = z
  .object({
    orderId: OrderId,
    cartId: CartId.optional(),
    customerId: CustomerId,
    transactionDate: DateTime,
    completed: z.boolean().optional(),
    completedDate: DateTime.nullish(),
    currency: Currency,
    origin: Address,
    destination: Address,
    lineItems: z.array(OrderLineItemIn).min(1, "an order needs at least one line item"),
    channel: z.string().min(1).max(50).nullish(),
    deliveredBySeller: z.boolean().optional(),
    excludeFromFiling: z.boolean().optional(),
    exemption: ExemptionIn.optional(),
    kind: OrderKind.optional(),
  })
  .superRefine((o, ctx) => {
    if (o.kind === "credit" && !o.completedDate) {
      ctx.addIssue({ code: "custom", path: ["completedDate"], message: "a credit needs a completedDate", input: o.completedDate })
    }
  })
export type CreateOrderRequest = z.infer<typeof CreateOrderRequest>

export const CreateOrderQuery = z.object({
  addressAutocomplete: z.enum(["none", "origin", "destination", "all"]).default("none"),
})

export const UpdateOrderRequest = z.object({ completedDate: DateTime })
export type UpdateOrderRequest = z.infer<typeof UpdateOrderRequest>

export const GetOrderQuery = z.object({
  expand: z
    .string()
    .optional()
    .refine((v) => v === undefined || v.split(",").every((f) => f.trim() === "refunds"), {
      error: "expand supports only refunds",
    }),
})

export const RefundItemIn = z.object({
  itemId: z.string().min(1).max(100),
  quantity: Quantity,
  cartItemIndex: z.number().int().nonnegative().optional(),
})

export const RefundRequest = z.object({
  items: z.array(RefundItemIn).optional(),
  returnedDate: DateTime.optional(),
  idempotencyKey: z.string().min(1).max(255).optional(),
})
export type RefundRequest = z.infer<typeof RefundRequest>

export const RefundRecord = z.object({
  idempotencyKey: z.string().nullable(),
  connectionId: z.string(),
  createdDate: z.string(),
  returnedDate: z.string().nullable(),
  items: z.array(LineItemOut),
})
export type RefundRecord = z.infer<typeof RefundRecord>
export const RefundResponse = z.array(RefundRecord)

export const OrderRecord = z.object({
  connectionId: z.string(),
  orderId: z.string(),
  cartId: z.string().nullable().optional(),
  customerId: z.string(),
  transactionDate: z.string(),
  completedDate: z.string().nullable(),
  origin: Address,
  destination: Address,
  currency: Currency,
  lineItems: z.array(LineItemOut),
  channel: z.string().nullable(),
  deliveredBySeller: z.boolean(),
  excludeFromFiling: z.boolean(),
  exemption: ExemptionOut,
  kind: OrderKind,
  refunds: z.array(RefundRecord).optional(),
})
export type OrderRecord = z.infer<typeof OrderRecord>

// ---------------------------------------------------------------------------------------------
// Exemption certificates
// ---------------------------------------------------------------------------------------------

export const EXEMPTION_REASONS = [
  "FederalGovernment",
  "StateOrLocalGovernment",
  "TribalGovernment",
  "ForeignDiplomat",
  "CharitableOrganization",
  "EducationalOrganization",
  "ReligiousOrganization",
  "Resale",
  "AgriculturalProduction",
  "IndustrialProductionOrManufacturing",
  "DirectPayPermit",
  "DirectMail",
  "Other",
] as const
export const BUSINESS_TYPES = [
  "AccommodationAndFoodServices",
  "AgriculturalForestryFishingHunting",
  "Construction",
  "FinanceAndInsurance",
  "InformationPublishingAndCommunications",
  "Manufacturing",
  "Mining",
  "RealEstate",
  "RentalAndLeasing",
  "RetailTrade",
  "TransportationAndWarehousing",
  "Utilities",
  "WholesaleTrade",
  "BusinessServices",
  "ProfessionalServices",
  "EducationAndHealthCareServices",
  "NonprofitOrganization",
  "Government",
  "NotABusiness",
  "Other",
] as const
export const ExemptionReason = z.enum(EXEMPTION_REASONS)
/** Accepts the version 1 spellings with underscores too (Agricultural_Forestry_Fishing_Hunting). */
export const BusinessType = z
  .string()
  .transform((s) => s.replace(/_/g, ""))
  .pipe(z.enum(BUSINESS_TYPES))

export const CertificateState = z.object({
  abbreviation: StateCode,
  identificationNumber: z.string().max(50).optional(),
})

export const CreateCertificateRequest = z
  .object({
    customerId: CustomerId,
    customerName: z.string().min(1, "customerName is required").max(100),
    address: Address,
    reason: ExemptionReason,
    reasonDescription: z.string().max(255).nullish(),
    customerBusinessType: BusinessType,
    customerBusinessDescription: z.string().max(255).nullish(),
    states: z.array(CertificateState).min(1, "a certificate needs at least one state"),
    singlePurchase: z.boolean().optional(),
  })
  .superRefine((c, ctx) => {
    if (c.reason === "Other" && !c.reasonDescription) {
      ctx.addIssue({
        code: "custom",
        path: ["reasonDescription"],
        message: "reasonDescription is required when reason is Other",
        input: c.reasonDescription,
      })
    }
    if (c.customerBusinessType === "Other" && !c.customerBusinessDescription) {
      ctx.addIssue({
        code: "custom",
        path: ["customerBusinessDescription"],
        message: "customerBusinessDescription is required when customerBusinessType is Other",
        input: c.customerBusinessDescription,
      })
    }
    const seen = new Set<string>()
    c.states.forEach((s, i) => {
      if (seen.has(s.abbreviation)) {
        ctx.addIssue({ code: "custom", path: ["states", i, "abbreviation"], message: "state listed twice", input: s.abbreviation })
      }
      seen.add(s.abbreviation)
    })
  })
export type CreateCertificateRequest = z.infer<typeof CreateCertificateRequest>

export const CertificateRecord = z.object({
  certificateId: z.string(),
  connectionId: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  address: Address,
  reason: z.string(),
  reasonDescription: z.string().nullable(),
  customerBusinessType: z.string(),
  customerBusinessDescription: z.string().nullable(),
  states: z.array(z.object({ abbreviation: z.string(), identificationNumber: z.string().optional() })),
  singlePurchase: z.boolean(),
  createdDate: z.string(),
  disabledAt: z.string().nullable(),
})
export type CertificateRecord = z.infer<typeof CertificateRecord>

export const ListCertificatesQuery = z.object({
  limit: QueryInt(0, 100).default(20),
  cursor: z.string().min(1).optional(),
  ascending: QueryBool.default(false),
  sortBy: z.enum(["id", "createdDate"]).default("id"),
  customerId: z.string().min(1).optional(),
  disabled: QueryBool.default(false),
  connectionId: ConnectionId.optional(),
})
export type ListCertificatesQuery = z.infer<typeof ListCertificatesQuery>

export const CertificateList = z.object({
  items: z.array(CertificateRecord),
  nextCursor: z.string().nullable(),
})
export type CertificateList = z.infer<typeof CertificateList>

// ---------------------------------------------------------------------------------------------
// TIC search, verify-address, ping, health
// ---------------------------------------------------------------------------------------------

export const TicSearchRequest = z.object({
  query: z.string().trim().min(1, "query must not be empty").max(200),
  limit: z.number().int().min(1, "limit must be between 1 and 100").max(100, "limit must be between 1 and 100").default(10),
  cursor: z.string().min(1).optional(),
})
export type TicSearchRequest = z.infer<typeof TicSearchRequest>

export const TicResult = z.object({
  ticId: z.number(),
  label: z.string(),
  description: z.string(),
  score: z.number(),
  rank: z.number(),
})
export type TicResult = z.infer<typeof TicResult>

export const TicSearchResponse = z.object({
  query: z.string(),
  results: z.array(TicResult),
  nextCursor: z.string().nullable(),
})
export type TicSearchResponse = z.infer<typeof TicSearchResponse>

export const VerifyAddressRequest = Address
export const VerifyAddressResponse = Address
export type VerifyAddressResponse = z.infer<typeof VerifyAddressResponse>

export const PingResponse = z.object({ message: z.string() })
export type PingResponse = z.infer<typeof PingResponse>

export const HealthResponse = z.object({
  $schema: z.string().optional(),
  status: z.string(),
  components: z.array(z.object({ status: z.string(), type: z.string() })),
})
export type HealthResponse = z.infer<typeof HealthResponse>

// ---------------------------------------------------------------------------------------------
// Path parameters
// ---------------------------------------------------------------------------------------------

export const ConnectionParams = z.object({ connectionId: ConnectionId })
export const CartParams = ConnectionParams.extend({ cartId: CartId })
export const OrderParams = ConnectionParams.extend({ orderId: OrderId })
export const CertificateParams = ConnectionParams.extend({ id: z.string().min(1).max(100) })

export { StateCode }
