import { dailyNexusWarnings } from "../nexus/medusa"

/** Economic nexus warnings: each state past 80 % or 100 % of its threshold where the store is not registered, once per level and period. */
export default dailyNexusWarnings

export const config = {
  name: "sales-tax-nexus",
  schedule: "0 6 * * *",
}
