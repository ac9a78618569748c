/**
 * What a wing registers in the plugin's runtime for another, so that neither imports the other:
 * the salesTax module's certificate-origin table, which checkout asks whether a certificate may
 * exempt, and checkout's forgetting of a customer's cached certificate list, which filing calls.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { runtimeSlot, salesTaxRuntime, type SalesTaxRuntime } from "../../runtime"
import type { CertificateStanding } from "./certificate-claims"

/** The certificate-origin table (the plugin's module registers itself: the provider runs in the Tax Module's container). */
export interface CertificateReviews {
  /**
   * The rows of `certificateIds`, and whether the customer has a submission in flight (a
   * reserved row: a certificate at the service that has no row yet may be that submission).
   */
  certificateStandings(
    customerId: string,
    certificateIds: string[],
  ): Promise<{ byId: Record<string, CertificateStanding>; reserved: boolean }>
}

/** Called by the plugin's module service when Medusa constructs it (kept in the plugin's runtime). */
const certificateReviews = runtimeSlot("certificateReviews", (): { reviews?: CertificateReviews } => ({}))
export function registerCertificateReviews(r: CertificateReviews | undefined, rt: SalesTaxRuntime = salesTaxRuntime()): void {
  certificateReviews(rt).reviews = r
}

export function registeredCertificateReviews(rt: SalesTaxRuntime = salesTaxRuntime()): CertificateReviews | undefined {
  return certificateReviews(rt).reviews
}

/** Forgets a customer's cached certificate list (checkout's invalidateCustomerCertificates, registered as its file loads). */
type ForgetCertificates = (customerId: string, scope: MedusaContainer) => Promise<unknown>
const forgetting = runtimeSlot("forgetCertificates", (): { forget?: ForgetCertificates } => ({}))
export function registerForgetCertificates(f: ForgetCertificates, rt: SalesTaxRuntime = salesTaxRuntime()): void {
  forgetting(rt).forget = f
}

export const forgetCertificates = (rt: SalesTaxRuntime): ForgetCertificates | undefined => forgetting(rt).forget
