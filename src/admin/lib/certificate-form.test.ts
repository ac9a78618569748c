import fc from "fast-check"
import { BUSINESS_TYPES, EXEMPTION_REASONS, US_STATES, issuesToErrors } from "../../../packages/contract/src/index"
import { AdminCreateCertificateBody } from "../../certificates/body"
import { emptyForm, humanize, toBody, validate, type FormState } from "./certificate-form"

const validForm: FormState = {
  ...emptyForm("Acme Wholesale LLC"),
  line1: "500 Pine St",
  city: "Seattle",
  state: "WA",
  zip: "98101",
  reason: "Resale",
  customerBusinessType: "WholesaleTrade",
  states: [{ abbreviation: "WA", identificationNumber: "603-123-456" }],
}

/** Server-side field locations of a body, without the "body." prefix. */
function serverErrors(form: FormState): string[] {
  const body = toBody(form)
  const r = AdminCreateCertificateBody.safeParse(body)
  return r.success ? [] : issuesToErrors("body", r.error, body).map((e) => e.location.replace(/^body\./, ""))
}

const text = fc.string({ maxLength: 30 })
const formArb: fc.Arbitrary<FormState> = fc.record({
  customerName: text,
  line1: text,
  line2: text,
  city: text,
  state: fc.constantFrom("", "Washington", "wa", ...US_STATES),
  zip: fc.constantFrom("", "981", "98101", "98101-1234", "ABCDE", "98101-12"),
  reason: fc.constantFrom("", ...EXEMPTION_REASONS),
  reasonDescription: text,
  customerBusinessType: fc.constantFrom("", ...BUSINESS_TYPES),
  customerBusinessDescription: text,
  states: fc.array(fc.record({ abbreviation: fc.constantFrom("", "CA", "WA", "NY", "California"), identificationNumber: text }), {
    maxLength: 3,
  }),
  singlePurchase: fc.boolean(),
})

describe("certificate form", () => {
  it("a complete form passes the widget's checks and the admin route's schema, and the body carries every field", () => {
    expect(validate(validForm)).toEqual({})
    expect(serverErrors(validForm)).toEqual([])
    const body = toBody({ ...validForm, line2: " Suite 4 ", reason: "Other", reasonDescription: "Tribal enterprise", singlePurchase: true })
    expect(body).toEqual({
      customerName: "Acme Wholesale LLC",
      address: { line1: "500 Pine St", line2: "Suite 4", city: "Seattle", state: "WA", zip: "98101" },
      reason: "Other",
      reasonDescription: "Tribal enterprise",
      customerBusinessType: "WholesaleTrade",
      states: [{ abbreviation: "WA", identificationNumber: "603-123-456" }],
      singlePurchase: true,
    })
  })

  it("an empty form names every required field in the words shown to the merchant", () => {
    const v = validate(emptyForm(""))
    expect(Object.keys(v).sort()).toEqual(
      [
        "address.city",
        "address.line1",
        "address.state",
        "address.zip",
        "customerBusinessType",
        "customerName",
        "reason",
        "states[0].abbreviation",
      ].sort(),
    )
    expect(v["address.state"]).toBe("Pick the state")
    expect(v["states[0].abbreviation"]).toBe("Pick a state")
  })

  it("the cross-field rules: descriptions for Other, a state listed twice", () => {
    const v = validate({
      ...validForm,
      reason: "Other",
      customerBusinessType: "Other",
      states: [
        { abbreviation: "WA", identificationNumber: "" },
        { abbreviation: "WA", identificationNumber: "" },
      ],
    })
    expect(Object.keys(v).sort()).toEqual([
      "customerBusinessDescription",
      "reasonDescription",
      "states[0].identificationNumber",
      "states[1].abbreviation",
      "states[1].identificationNumber",
    ])
  })

  it("an identification number per state, except for the federal and tribal governments (issue 27)", () => {
    const noId = { ...validForm, states: [{ abbreviation: "WA", identificationNumber: " " }] }
    expect(validate(noId)).toEqual({ "states[0].identificationNumber": "Enter the state's identification number" })
    expect(serverErrors(noId)).toEqual(["states[0].identificationNumber"])
    const r = AdminCreateCertificateBody.safeParse(toBody(noId))
    expect(r.success ? [] : issuesToErrors("body", r.error, toBody(noId))).toEqual([
      {
        location: "body.states[0].identificationNumber",
        message:
          "an identification number is required for WA (every reason but FederalGovernment and TribalGovernment carries one per state)",
        value: undefined,
      },
    ])
    for (const reason of ["FederalGovernment", "TribalGovernment"]) {
      expect(validate({ ...noId, reason })).toEqual({})
      expect(serverErrors({ ...noId, reason })).toEqual([])
    }
  })

  it("property: every field the admin route would reject is flagged by the widget first, under the same key", () => {
    fc.assert(
      fc.property(formArb, (form) => {
        const client = validate(form)
        for (const loc of serverErrors(form)) {
          // a whole-array error ("states": none given) is shown at the array
          expect(client).toHaveProperty([loc])
        }
        // and a form the widget accepts is accepted by the route
        if (Object.keys(client).length === 0) expect(serverErrors(form)).toEqual([])
      }),
      { numRuns: 300 },
    )
  })

  it("humanizes the service's enum spellings", () => {
    expect(humanize("IndustrialProductionOrManufacturing")).toBe("Industrial production or manufacturing")
    expect(humanize("Agricultural_Forestry_Fishing_Hunting")).toBe("Agricultural forestry fishing hunting")
    expect(humanize("Resale")).toBe("Resale")
  })
})
