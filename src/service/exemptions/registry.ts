// What a wing registers in the plugin's runtime for another, so that neither imports the other.
import type { MedusaContainer } from "@medusajs/framework/types"
import { registration } from "../../runtime"
import type { CertificateStanding } from "./certificate-claims"

/** The certificate-origin table (the plugin's module registers itself: the provider runs in the Tax Module's container). */
export interface CertificateReviews {
  /** The rows of `certificateIds`, and whether a submission is in flight (a certificate with no row may be it). */
  certificateStandings(
    customerId: string,
    certificateIds: string[],
  ): Promise<{ byId: Record<string, CertificateStanding>; reserved: boolean }>
}

/** The same table, as filing records a single-purchase certificate used by a filed order. */
export interface CertificateUses {
  markCertificateUsed(u: { certificateId: string; orderId: string; customerId: string | null }): Promise<void>
}

/** Called by the plugin's module service when Medusa constructs it (kept in the plugin's runtime). */
export const [registerCertificateReviews, registeredCertificateReviews] = registration<CertificateReviews>("certificateReviews")

/** Forgets a customer's cached certificate list (checkout's invalidateCustomerCertificates, registered as its file loads). */
type ForgetCertificates = (customerId: string, scope: MedusaContainer) => Promise<unknown>
export const [registerForgetCertificates, forgetCertificates] = registration<ForgetCertificates>("forgetCertificates")
