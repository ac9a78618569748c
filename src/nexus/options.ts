import { z } from "zod"
import { PERIOD_KINDS } from "./thresholds"

const StateCode = z.string().regex(/^[A-Z]{2}$/, "a two-letter US state code in capitals (TX)")

/** Option `nexus`: registered states (besides the admin's), threshold overrides, and whether crossings are logged. */
export const NexusOptionsSchema = z
  .object({
    registered: z.array(StateCode).default([]),
    thresholds: z
      .record(
        StateCode,
        z
          .object({
            sales: z.number().positive("nexus.thresholds.*.sales is a positive dollar amount").nullable().optional(),
            transactions: z.number().int().positive("nexus.thresholds.*.transactions is a positive integer").nullable().optional(),
            combine: z.enum(["or", "and"]).optional(),
            period: z.enum(PERIOD_KINDS).optional(),
            netsReturns: z.boolean().optional(),
            source: z.string().max(200).optional(),
          })
          .strict(),
      )
      .default({}),
    warnings: z.boolean({ error: "nexus.warnings must be true or false" }).default(true),
  })
  .default({ registered: [], thresholds: {}, warnings: true })
