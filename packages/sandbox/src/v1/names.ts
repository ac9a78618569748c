/** The 18 version 1 operations (the service's spelling), in the interface's order. */
export const V1_OPERATION_NAMES = [
  "Ping",
  "VerifyAddress",
  "Lookup",
  "LookupForDate",
  "Authorized",
  "Captured",
  "AuthorizedWithCapture",
  "Returned",
  "ReturnedPro",
  "AddExemptCertificate",
  "GetExemptCertificates",
  "DeleteExemptCertificate",
  "GetTICs",
  "GetTICGroups",
  "GetTICsByGroup",
  "CreatePlatformAccount",
  "GetLocations",
  "AddTransactions",
] as const
export type V1OperationName = (typeof V1_OPERATION_NAMES)[number]

/** The /_sandbox counts and faults key of a v1 operation: "v1.Lookup". */
export type V1ControlKey = `v1.${V1OperationName}`
export const v1ControlKey = (name: V1OperationName): V1ControlKey => `v1.${name}`
export const V1_CONTROL_KEYS: readonly V1ControlKey[] = V1_OPERATION_NAMES.map(v1ControlKey)
