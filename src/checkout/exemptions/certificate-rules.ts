// Rules on an exemption certificate's content that the service's request schema does not state,
// shared by the admin and store routes' validation and the admin widget's form. Pure.
import type { EXEMPTION_REASONS } from "../../../packages/contract/src/index"
import type { CertificateStanding } from "../../service/exemptions/certificate-claims"
import type { externalCertificatesMode } from "../../options"

type Reason = (typeof EXEMPTION_REASONS)[number]
/** Whether certificates the plugin did not make exempt, or only once staff approve them (option `externalCertificates`). */
export type ExternalCertificates = ReturnType<typeof externalCertificatesMode>

/** Reasons whose certificates carry no state-issued identification number (exempt under federal law). */
export const REASONS_WITHOUT_ID_NUMBER: readonly Reason[] = ["FederalGovernment", "TribalGovernment"]

/** Pure: whether a certificate for `reason` needs an identification number for each of its states. */
export function needsIdNumber(reason: string | undefined | null): boolean {
  return !REASONS_WITHOUT_ID_NUMBER.includes(reason as Reason)
}

/** Pure: the states (by index) that lack the identification number their reason requires. */
export function missingIdNumbers(body: {
  reason?: string | null
  states?: readonly { abbreviation?: string; identificationNumber?: string | null }[] | null
}): { index: number; message: string }[] {
  if (!needsIdNumber(body.reason) || !Array.isArray(body.states)) return []
  return body.states.flatMap((s, index) => {
    if (typeof s?.identificationNumber === "string" && s.identificationNumber.trim()) return []
    const st = s?.abbreviation ? ` for ${s.abbreviation}` : ""
    const message = `an identification number is required${st} (every reason but ${REASONS_WITHOUT_ID_NUMBER.join(" and ")} carries one per state)`
    return [{ index, message }]
  })
}

/** Certificates one customer may have active or pending that they submitted themselves (the store routes). */
export const SHOPPER_CERTIFICATE_CAP = 10

/** A certificate's status as the widgets and the shopper's list show it. */
export type CertificateStatus = "pending" | "active" | "rejected" | "used" | "disabled"

/** What the store keeps about a certificate (the certificate-origin row), as far as its status goes. */
type StandingLike = Pick<CertificateStanding, "reviewStatus" | "usedOrderId"> & { usedAt?: string | null }

/** Pure: a certificate's status, `used` and `rejected` first; with no row (made elsewhere), `external` decides active or pending. */
export function certificateStatus(
  cert: { disabledAt: string | null },
  standing: StandingLike | null | undefined,
  external: ExternalCertificates = "exempt",
): CertificateStatus {
  if (standing?.usedOrderId || standing?.usedAt) return "used"
  if (standing?.reviewStatus === "rejected") return "rejected"
  if (cert.disabledAt) return "disabled"
  if (standing?.reviewStatus === "pending") return "pending"
  if (!standing && external === "review") return "pending"
  return "active"
}
