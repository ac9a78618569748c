import { z } from "zod"
import { PERIOD_KINDS } from "./thresholds"

const StateCode = z.string().regex(/^[A-Z]{2}$/, "a two-letter US state code in capitals (TX)")

/**
 * Option `nexus`: states the merchant is registered in (besides those marked in the admin), the
 * merchant's own thresholds per state (over the shipped table, src/nexus/thresholds.ts), and
 * whether the daily job logs crossing warnings.
 */
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
