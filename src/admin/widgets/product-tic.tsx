import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminProduct, DetailWidgetProps } from "@medusajs/framework/types"
import { TicPanel } from "../components/tic-panel"

const ProductTicWidget = ({ data }: DetailWidgetProps<AdminProduct>) => <TicPanel type="product" id={data.id} />

export const config = defineWidgetConfig({ zone: "product.details.side.after", id: "medusa-sales-tax:product-tic" })
export default ProductTicWidget
