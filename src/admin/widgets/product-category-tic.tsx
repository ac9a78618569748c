import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminProductCategory, DetailWidgetProps } from "@medusajs/framework/types"
import { TicPanel } from "../components/tic-panel"

const ProductCategoryTicWidget = ({ data }: DetailWidgetProps<AdminProductCategory>) => <TicPanel type="product-category" id={data.id} />

export const config = defineWidgetConfig({ zone: "product_category.details.side.after", id: "medusa-sales-tax:product-category-tic" })
export default ProductCategoryTicWidget
