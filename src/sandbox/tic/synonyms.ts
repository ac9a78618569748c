/**
 * The small, hand-kept vocabulary around the TIC search. The ranking itself is MiniSearch's;
 * these tables only decide WHICH words are searched:
 * - STOP_WORDS are dropped from descriptions and queries;
 * - QUERY_EXPANSIONS add related catalogue words to a query word, each with a weight (< 1, so a
 *   word the caller typed always counts more than one the sandbox added);
 * - INDEX_KEYWORDS add everyday words to a few TICs whose catalogue text lacks them
 *   (indexed in a separate field that counts 0.6 of the description).
 * Keys are normalized terms (lower case, singular; see normalizeTerm).
 */

export const STOP_WORDS: ReadonlySet<string> = new Set([
  "a", "an", "the", "and", "or", "of", "for", "to", "by", "in", "on", "at", "with", "as", "from",
  "into", "per", "is", "are", "be", "being", "it", "its", "their", "that", "which", "than",
  "other", "any", "all", "only", "such", "similar", "use", "used", "sold", "including", "etc",
  "i", "my", "me", "we", "our", "you", "your", "some", "buy", "buying", "sell", "selling", "item",
])

/** query term -> [catalogue words, weight][] */
export const QUERY_EXPANSIONS: Readonly<Record<string, readonly (readonly [string, number])[]>> = {
  // digital products
  ebook: [["digital book", 0.9]],
  kindle: [["digital book", 0.8]],
  audiobook: [["digital audio book", 0.8]],
  mp3: [["digital audio", 0.8]],
  music: [["digital audio", 0.6]],
  song: [["digital audio", 0.6]],
  movie: [["digital audio visual", 0.6]],
  film: [["digital audio visual", 0.6]],
  video: [["digital audio visual", 0.6]],
  download: [["digital electronically", 0.6]],
  app: [["prewritten software", 0.6]],
  saas: [["remotely accessed prewritten software", 0.9]],
  cloud: [["remotely accessed software", 0.6]],
  // clothing
  kid: [["child", 0.8], ["toddler", 0.6]],
  jacket: [["clothing", 0.8], ["outerwear", 0.8]],
  coat: [["clothing", 0.8], ["outerwear", 0.8]],
  parka: [["clothing", 0.8], ["outerwear", 0.8]],
  shirt: [["clothing", 0.8]],
  pant: [["clothing", 0.8]],
  jean: [["clothing", 0.8]],
  dress: [["clothing", 0.8]],
  sweater: [["clothing", 0.8]],
  sock: [["clothing", 0.8]],
  clothe: [["clothing", 0.9]],
  apparel: [["clothing", 0.9]],
  garment: [["clothing", 0.9]],
  winter: [["snow", 0.5]],
  // shipping
  delivery: [["shipping", 0.8]],
  freight: [["shipping transportation", 0.8]],
  postage: [["shipping", 0.6]],
  fee: [["charge", 0.6]],
  // food
  grocery: [["food ingredient", 0.8]],
  restaurant: [["prepared food", 0.8]],
  meal: [["prepared food", 0.6]],
  takeout: [["prepared food", 0.8]],
  soda: [["soft drink", 0.8]],
  // drugs
  medicine: [["drug", 0.8]],
  medication: [["drug", 0.8]],
  pill: [["drug", 0.6]],
  rx: [["prescription", 0.9]],
  otc: [["nonprescription drug", 0.8]],
  // gift cards
  voucher: [["gift card", 0.8]],
  giftcard: [["gift card", 0.9]],
}

/** ticId -> extra words indexed for that TIC. */
export const INDEX_KEYWORDS: Readonly<Record<number, readonly string[]>> = {
  10005: ["voucher", "stored value", "giftcard"],
  11010: ["delivery", "freight", "shipping charge"],
  20010: ["apparel", "garment", "clothes", "outerwear", "jacket", "coat", "shirt", "pants", "dress"],
  92008: ["winter", "jacket", "coat", "snowsuit", "outerwear", "kids", "child"],
  92062: ["kids", "child", "infant", "apparel"],
  31099: ["ebook", "kindle"],
  40030: ["grocery", "groceries"],
  41000: ["restaurant", "takeout", "meal"],
  51010: ["otc", "medicine"],
  51020: ["rx", "medicine"],
  30070: ["saas", "cloud", "subscription software"],
}

/** Descriptions of the TIC families whose head code is not itself in the catalogue. */
export const GROUP_LABELS: Readonly<Record<number, string>> = {
  70000: "Firearm safety and storage",
  90000: "Miscellaneous products, shipping terms and beverages",
  92000: "Specialty clothing, infant, religious and collectible products",
  93000: "Computer peripherals, digital content and remote services",
  95000: "Household remedies",
  96000: "Household supplies and personal care",
  99000: "Marketplace, fees and reporting codes",
}

/**
 * Qualifiers that make a TIC a niche variant of a common one ("Insulin for animal use with a
 * prescription" next to "... for human use ..."). A TIC whose label matches `pattern` has its
 * score multiplied by `factor`, unless the query contains one of `askedBy` (normalized terms).
 */
export const NICHE_QUALIFIERS: Readonly<Record<string, { pattern: RegExp; factor: number; askedBy: readonly string[] }>> = {
  animal: { pattern: /\banimal|veterinar/i, factor: 0.8, askedBy: ["animal", "pet", "vet", "veterinary", "dog", "cat"] },
  institution: { pattern: /\bto (hospitals|other medical facilities|veterinary hospitals)/i, factor: 0.8, askedBy: ["hospital", "facility", "clinic"] },
  sample: { pattern: /\bfree samples?\b/i, factor: 0.8, askedBy: ["free", "sample"] },
  resale: { pattern: /\bother than the end user\b/i, factor: 0.8, askedBy: ["resale", "reseller", "wholesale"] },
  payer: { pattern: /\b(medicare|medicaid)\b/i, factor: 0.9, askedBy: ["medicare", "medicaid"] },
}
