import { ticRoutes } from "../../../../../../tics/targets"

/** The product-category's TIC: GET resolved TIC + source, POST { tic } sets it, DELETE clears it. */
export const { GET, POST, DELETE } = ticRoutes("product-category")
