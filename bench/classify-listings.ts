/**
 * Labelled product listings for `npm run bench:classify` (bench/classify.bench.ts): titles and
 * category paths as the demo catalogues of open commerce projects publish them (Medusa's starter
 * seed, WooCommerce's sample-data/sample_products.csv, Vendure's mock-data products.csv), each with
 * the TICs a reviewer would accept (best first), labelled by hand from the TIC catalogue. `split`:
 * "dev" may be used to tune; "held_out" never is. A start: far fewer than the 300 the issue asks for.
 */
export interface LabelledListing {
  source: "medusa-starter" | "woocommerce-sample" | "vendure-mock"
  split: "dev" | "held_out"
  title: string
  /** category paths, root first */
  categories: string[][]
  type?: string
  tags?: string[]
  acceptable: number[]
}

const CLOTHING = [20010, 20130, 20000]
const l = (
  source: LabelledListing["source"],
  split: LabelledListing["split"],
  title: string,
  path: string,
  acceptable: number[],
): LabelledListing => ({ source, split, title, categories: path ? [path.split(" > ")] : [], acceptable })

export const LISTINGS: readonly LabelledListing[] = [
  l("medusa-starter", "dev", "Medusa T-Shirt", "Shirts", CLOTHING),
  l("medusa-starter", "held_out", "Medusa Sweatshirt", "Sweatshirts", [...CLOTHING, 92015]),
  l("medusa-starter", "dev", "Medusa Sweatpants", "Pants", [...CLOTHING, 92015]),
  l("medusa-starter", "held_out", "Medusa Shorts", "Merch", CLOTHING),
  l("woocommerce-sample", "dev", "V-Neck T-Shirt", "Clothing > Tshirts", CLOTHING),
  l("woocommerce-sample", "held_out", "Hoodie", "Clothing > Hoodies", [...CLOTHING, 92015]),
  l("woocommerce-sample", "dev", "Hoodie with Logo", "Clothing > Hoodies", [...CLOTHING, 92015]),
  l("woocommerce-sample", "held_out", "T-Shirt", "Clothing > Tshirts", CLOTHING),
  l("woocommerce-sample", "dev", "Beanie", "Clothing > Accessories", CLOTHING),
  l("woocommerce-sample", "held_out", "Belt", "Clothing > Accessories", [...CLOTHING, 20020]),
  l("woocommerce-sample", "dev", "Cap", "Clothing > Accessories", CLOTHING),
  l("woocommerce-sample", "held_out", "Sunglasses", "Clothing > Accessories", [20021]),
  l("woocommerce-sample", "dev", "Hoodie with Pocket", "Clothing > Hoodies", [...CLOTHING, 92015]),
  l("woocommerce-sample", "held_out", "Hoodie with Zipper", "Clothing > Hoodies", [...CLOTHING, 92015]),
  l("woocommerce-sample", "dev", "Long Sleeve Tee", "Clothing > Tshirts", CLOTHING),
  l("woocommerce-sample", "held_out", "Polo", "Clothing > Tshirts", CLOTHING),
  l("woocommerce-sample", "dev", "Album", "Music", [31040, 31035, 31000]),
  l("woocommerce-sample", "held_out", "Single", "Music", [31040, 31035, 31000]),
  l("woocommerce-sample", "dev", "T-Shirt with Logo", "Clothing > Tshirts", CLOTHING),
  l("woocommerce-sample", "held_out", "Beanie with Logo", "Clothing > Accessories", CLOTHING),
  l("vendure-mock", "dev", "Laptop", "Electronics > Computers", [30100, 30000]),
  l("vendure-mock", "held_out", "Tablet", "Electronics > Computers", [30100, 30000]),
  l("vendure-mock", "dev", "Wireless Optical Mouse", "Electronics > Computers", [30100, 30000]),
  l("vendure-mock", "held_out", "32-Inch Monitor", "Electronics > Computers", [30100, 30000]),
  l("vendure-mock", "dev", "Curvy Monitor", "Electronics > Computers", [30100, 30000]),
  l("vendure-mock", "held_out", "High Performance RAM", "Electronics > Computers", [30100, 30000]),
  l("vendure-mock", "dev", "Gaming PC", "Electronics > Computers", [30100, 30000]),
  l("vendure-mock", "held_out", "Hard Drive", "Electronics > Computers", [30100, 30000]),
]
