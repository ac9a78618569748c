import { MedusaService } from "@medusajs/framework/utils"
import { TicAssignment } from "./models/tic-assignment"

export type TicTargetType = "product" | "product_type" | "product_category"
export const TIC_TARGET_TYPES: readonly TicTargetType[] = ["product", "product_type", "product_category"]

function checkTarget(targetType: string): asserts targetType is TicTargetType {
  if (!TIC_TARGET_TYPES.includes(targetType as TicTargetType)) {
    throw new Error(`targetType must be one of ${TIC_TARGET_TYPES.join(", ")}`)
  }
}

/**
 * TIC assignments (module `salesTax`). Generated CRUD: listTicAssignments, createTicAssignments, ...
 */
export class SalesTaxModuleService extends MedusaService({ TicAssignment }) {
  /** Sets (or with null clears) the TIC of one target. */
  async setTic(targetType: TicTargetType, targetId: string, tic: number | null): Promise<{ target_type: TicTargetType; target_id: string; tic: number | null }> {
    checkTarget(targetType)
    if (!targetId) throw new Error("targetId is required")
    if (tic !== null && (!Number.isInteger(tic) || tic < 0)) throw new Error("tic must be a non-negative integer or null")
    const existing = await this.listTicAssignments({ target_type: targetType, target_id: targetId })
    if (tic === null) {
      if (existing.length) await this.deleteTicAssignments(existing.map((e) => e.id))
      return { target_type: targetType, target_id: targetId, tic: null }
    }
    if (existing.length) {
      await this.updateTicAssignments({ id: existing[0].id, tic })
      if (existing.length > 1) await this.deleteTicAssignments(existing.slice(1).map((e) => e.id))
    } else {
      await this.createTicAssignments({ target_type: targetType, target_id: targetId, tic })
    }
    return { target_type: targetType, target_id: targetId, tic }
  }

  /** TICs of the given targets that have one: { [targetId]: tic }. */
  async getTics(targetType: TicTargetType, ids: string[]): Promise<Record<string, number>> {
    checkTarget(targetType)
    const uniq = [...new Set(ids.filter(Boolean))]
    if (!uniq.length) return {}
    const rows = await this.listTicAssignments({ target_type: targetType, target_id: uniq }, { take: null as unknown as number })
    const out: Record<string, number> = {}
    for (const r of rows) out[r.target_id] = r.tic
    return out
  }
}

export default SalesTaxModuleService
