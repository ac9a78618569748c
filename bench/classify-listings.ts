/**
 * Labelled product listings for `npm run bench:classify` (bench/classify.bench.ts), read from
 * bench/classify-listings.json: titles, category paths, types and tags as the demo catalogues of
 * open commerce projects publish them (the file names each source and commit), each with the TICs
 * a reviewer accepts (best first; 0 = no specific TIC fits), labelled by hand from the TIC
 * catalogue. `split`: "dev" may be used to tune; "held_out" never is.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { z } from "zod"

const Listing = z.object({
  split: z.enum(["dev", "held_out"]),
  source: z.string().min(1),
  title: z.string().min(1),
  /** category paths, root first */
  categories: z.array(z.array(z.string())),
  type: z.string().optional(),
  tags: z.array(z.string()).optional(),
  acceptable: z.array(z.number().int().nonnegative()).min(1),
})
export type LabelledListing = z.infer<typeof Listing>

export const LISTINGS: readonly LabelledListing[] = z
  .object({ listings: z.array(Listing).min(300) })
  .parse(JSON.parse(readFileSync(join(__dirname, "classify-listings.json"), "utf8"))).listings
