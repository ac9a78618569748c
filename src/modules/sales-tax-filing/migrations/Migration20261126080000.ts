import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** Issue 27: why a record's filing is paused ("key_refused": the service refused the key, retried with back-off). */
export class Migration20261126080000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "sales_tax_filing_record" add column if not exists "paused_reason" text null;`)
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_sales_tax_filing_record_paused_reason" ON "sales_tax_filing_record" ("paused_reason") WHERE deleted_at IS NULL AND paused_reason IS NOT NULL;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_sales_tax_filing_record_paused_reason";`)
    this.addSql(`alter table if exists "sales_tax_filing_record" drop column if exists "paused_reason";`)
  }
}
