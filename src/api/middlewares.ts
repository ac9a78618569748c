import { defineMiddlewares } from "@medusajs/framework/http"
import { adminSalesTaxMiddlewares } from "./admin/sales-tax/middlewares"
import { storeSalesTaxMiddlewares } from "./store/sales-tax/tax-resync"
import { storeSalesTaxGuardMiddlewares } from "./store/sales-tax/verify-address/middlewares"

export default defineMiddlewares({
  routes: [...adminSalesTaxMiddlewares, ...storeSalesTaxGuardMiddlewares, ...storeSalesTaxMiddlewares],
})
