import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * The whole order lifecycle: records of kind edit / claim / credit, refunds of source
 * edit, the edits of an order and its revision (void-and-refile count), children by parent order.
 */
export class Migration20261122170000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "sales_tax_filing_record" drop constraint if exists "sales_tax_filing_record_kind_check";`)
    this.addSql(
      `alter table if exists "sales_tax_filing_record" add constraint "sales_tax_filing_record_kind_check" check ("kind" in ('order', 'exchange', 'edit', 'claim', 'credit'));`,
    )
    this.addSql(`alter table if exists "sales_tax_filing_record" add column if not exists "revision" integer not null default 0;`)
    this.addSql(`alter table if exists "sales_tax_filing_record" add column if not exists "edits" jsonb null;`)
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_sales_tax_filing_record_parent_order_id" ON "sales_tax_filing_record" ("parent_order_id") WHERE deleted_at IS NULL;`,
    )
    this.addSql(`alter table if exists "sales_tax_filing_refund" drop constraint if exists "sales_tax_filing_refund_source_type_check";`)
    this.addSql(
      `alter table if exists "sales_tax_filing_refund" add constraint "sales_tax_filing_refund_source_type_check" check ("source_type" in ('return', 'claim', 'exchange', 'cancel', 'edit'));`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_sales_tax_filing_record_parent_order_id";`)
    this.addSql(`alter table if exists "sales_tax_filing_record" drop column if exists "edits";`)
    this.addSql(`alter table if exists "sales_tax_filing_record" drop column if exists "revision";`)
    this.addSql(`alter table if exists "sales_tax_filing_record" drop constraint if exists "sales_tax_filing_record_kind_check";`)
    this.addSql(
      `alter table if exists "sales_tax_filing_record" add constraint "sales_tax_filing_record_kind_check" check ("kind" in ('order', 'exchange'));`,
    )
    this.addSql(`alter table if exists "sales_tax_filing_refund" drop constraint if exists "sales_tax_filing_refund_source_type_check";`)
    this.addSql(
      `alter table if exists "sales_tax_filing_refund" add constraint "sales_tax_filing_refund_source_type_check" check ("source_type" in ('return', 'claim', 'exchange', 'cancel'));`,
    )
  }
}
