import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** Filing state needs_attention (issue 26): a US order that cannot be filed without a person. */
export class Migration20261126081000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "sales_tax_filing_record" drop constraint if exists "sales_tax_filing_record_state_check";`)
    this.addSql(
      `alter table if exists "sales_tax_filing_record" add constraint "sales_tax_filing_record_state_check" check ("state" in ('pending', 'filed', 'completed', 'partially_refunded', 'refunded', 'voided', 'failed', 'skipped', 'needs_attention'));`,
    )
  }

  override async down(): Promise<void> {
    // a record left for a person becomes skipped again (the state before it existed)
    this.addSql(`update "sales_tax_filing_record" set "state" = 'skipped' where "state" = 'needs_attention';`)
    this.addSql(`alter table if exists "sales_tax_filing_record" drop constraint if exists "sales_tax_filing_record_state_check";`)
    this.addSql(
      `alter table if exists "sales_tax_filing_record" add constraint "sales_tax_filing_record_state_check" check ("state" in ('pending', 'filed', 'completed', 'partially_refunded', 'refunded', 'voided', 'failed', 'skipped'));`,
    )
  }
}
