import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** When a record's street lines were removed (option filing.addressRetentionDays); the due ones found by creation. */
export class Migration20261127080000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "sales_tax_filing_record" add column if not exists "address_removed_at" timestamptz null;`)
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_sales_tax_filing_record_address_due" ON "sales_tax_filing_record" ("created_at") WHERE deleted_at IS NULL AND address_removed_at IS NULL;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_sales_tax_filing_record_address_due";`)
    this.addSql(`alter table if exists "sales_tax_filing_record" drop column if exists "address_removed_at";`)
  }
}
