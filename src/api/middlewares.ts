import { defineMiddlewares } from "@medusajs/framework/http"
import { adminSalesTaxMiddlewares } from "./admin/sales-tax/middlewares"
import { storeSalesTaxMiddlewares } from "./store/sales-tax/tax-resync"

export default defineMiddlewares({
  routes: [...adminSalesTaxMiddlewares, ...storeSalesTaxMiddlewares],
})
