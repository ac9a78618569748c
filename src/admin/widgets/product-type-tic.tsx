import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminProductType, DetailWidgetProps } from "@medusajs/framework/types"
import { TicPanel } from "../components/tic-panel"

const ProductTypeTicWidget = ({ data }: DetailWidgetProps<AdminProductType>) => <TicPanel type="product-type" id={data.id} />

export const config = defineWidgetConfig({ zone: "product_type.details.after", id: "medusa-sales-tax:product-type-tic" })
export default ProductTypeTicWidget
