/** Contract: the plugin's copies of Medusa's container and module keys (keys.ts) are the installed ones. */
import * as medusa from "@medusajs/framework/utils"
import { ContainerRegistrationKeys, Modules } from "./keys"

describe("Medusa's keys", () => {
  it("every container registration key the plugin resolves is the installed one", () => {
    for (const [name, key] of Object.entries(ContainerRegistrationKeys))
      expect([name, key]).toEqual([name, medusa.ContainerRegistrationKeys[name as keyof typeof ContainerRegistrationKeys]])
  })

  it("every module key the plugin resolves is the installed one", () => {
    for (const [name, key] of Object.entries(Modules)) expect([name, key]).toEqual([name, medusa.Modules[name as keyof typeof Modules]])
  })
})
