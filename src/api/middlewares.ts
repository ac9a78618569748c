import { defineMiddlewares } from "@medusajs/framework/http"
import { adminSalesTaxMiddlewares } from "./admin/sales-tax/middlewares"

export default defineMiddlewares({
  routes: [...adminSalesTaxMiddlewares],
})
