/**
 * A single-purchase certificate exempts exactly one order: the completion of a cart priced under it claims it, under
 * the certificate's lock, in the completion's `validate` hook. A second cart is refused; its next refresh no longer
 * offers the certificate. A claim by a cart that never became an order is taken over later (certificate-claims.ts).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { graph } from "../../query"
import { getPluginOptions } from "../../options"
import { connectionForChannel, optionsForChannel } from "../../service/connections"
import { getCheckoutClient } from "../../service/client-factory"
import { SALES_TAX_MODULE } from "../../constants"
import type { SalesTaxModuleService } from "../../modules/sales-tax/service"
import type { LockingLike } from "../../medusa/cart-restore"
import { checkoutExemption, type ChargedTaxLine } from "../../service/exemptions/exemption-snapshot"
import { activeCertificates, certificateStoreOn, invalidateCustomerCertificates } from "../exemptions/exemptions"
import type { CachingModuleLike } from "../quote/result-cache"
import { claimDecision } from "../../service/exemptions/certificate-claims"
import { recordFields } from "../../medusa/tax-line-record"
import type { TaxedEntity } from "../../medusa/taxed-entity"

export const CERTIFICATE_USED_CODE = "sales_tax_certificate_used"
export const CERTIFICATE_USED_MESSAGE =
  "The exemption certificate on this cart covers a single purchase and another order has used it. The cart's tax is recomputed without it: review the cart and place the order again."
export const CERTIFICATE_UNVERIFIED_CODE = "sales_tax_certificate_unverified"

type Claims = Pick<SalesTaxModuleService, "certificateOrigins" | "claimCertificate" | "finalizeClaim">

interface ClaimCart extends Pick<TaxedEntity, "id" | "customer_id" | "sales_channel_id"> {
  items?: { tax_lines?: ChargedTaxLine[] | null }[] | null
  shipping_methods?: { tax_lines?: ChargedTaxLine[] | null }[] | null
}

/** Whether the certificate is single-purchase: the customer's list as the provider cached it (else read), else the certificate itself. */
async function isSinglePurchase(container: MedusaContainer, cart: ClaimCart, customerId: string, certificateId: string): Promise<boolean> {
  const options = getPluginOptions(container)
  const conn = connectionForChannel(options, cart.sales_channel_id)
  const client = getCheckoutClient(optionsForChannel(options, cart.sales_channel_id))
  const caching = container.resolve<CachingModuleLike | undefined>("caching", { allowUnregistered: true })
  try {
    const listed = (await activeCertificates({ ...conn, client }, customerId, options, { store: certificateStoreOn(caching) })).find(
      (c) => c.certificateId === certificateId,
    )
    return (listed ?? (await client.getCertificate(certificateId))).singlePurchase === true
  } catch {
    // never place an order under a certificate whose one use cannot be checked
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "The exemption certificate on this cart could not be checked right now. Try again in a moment.",
      CERTIFICATE_UNVERIFIED_CODE,
    )
  }
}

async function cartCompleted(container: MedusaContainer, cartId: string): Promise<boolean> {
  const [c] = await graph<{ completed_at?: string | Date | null }>(container, {
    entity: "cart",
    fields: ["id", "completed_at"],
    filters: { id: cartId },
  })
  return !!c?.completed_at
}

/** The claim half of the plugin's `completeCartWorkflow.hooks.validate` handler (complete-cart-validate.ts). */
export async function claimSinglePurchase(
  { input }: { input: { id?: string } },
  { container }: { container: MedusaContainer },
): Promise<void> {
  if (!input?.id) return
  const claims = container.resolve<Claims | undefined>(SALES_TAX_MODULE, { allowUnregistered: true })
  if (!claims) return
  const [cart] = await graph<ClaimCart>(container, {
    entity: "cart",
    fields: ["id", "customer_id", "sales_channel_id", ...recordFields("items"), ...recordFields("shipping_methods")],
    filters: { id: input.id },
  })
  const exemption = cart ? checkoutExemption([...(cart.items ?? []), ...(cart.shipping_methods ?? [])]) : null
  const customerId = exemption?.customerId ?? cart?.customer_id ?? null
  if (!cart || !exemption || !customerId) return
  const id = exemption.exemptionId
  if (!(await isSinglePurchase(container, cart, customerId, id))) return
  const locking = container.resolve<LockingLike>(Modules.LOCKING)
  const claimed = await locking.execute(
    `sales-tax:certificate:${id}`,
    async () => {
      const st = (await claims.certificateOrigins([id]))[id]
      let d = claimDecision(st, cart.id, Date.now())
      if (d === "ask") d = claimDecision(st, cart.id, Date.now(), await cartCompleted(container, st!.claimedCartId!))
      if (d === "final") await claims.finalizeClaim(id)
      if (d !== "claim") return false
      await claims.claimCertificate({ certificateId: id, customerId, cartId: cart.id })
      return true
    },
    { timeout: 30 },
  )
  // every instance's next refresh sees the claim: another cart is no longer offered it
  await invalidateCustomerCertificates(customerId, container)
  if (!claimed) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, CERTIFICATE_USED_MESSAGE, CERTIFICATE_USED_CODE)
}
