import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * Certificate review and use (models/certificate-origin.ts, issue 27). Staff certificates are
 * approved; certificates customers submitted before the review existed become pending (they were
 * never looked at: they exempt again once staff approve them in the customer widget).
 */
export class Migration20261126084700 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "sales_tax_certificate_origin" add column if not exists "review_status" text check ("review_status" in ('pending', 'approved', 'rejected')) not null default 'approved';`,
    )
    this.addSql(`alter table if exists "sales_tax_certificate_origin" add column if not exists "reviewed_by" text null;`)
    this.addSql(`alter table if exists "sales_tax_certificate_origin" add column if not exists "reviewed_at" timestamptz null;`)
    this.addSql(`alter table if exists "sales_tax_certificate_origin" add column if not exists "rejection_reason" text null;`)
    this.addSql(`alter table if exists "sales_tax_certificate_origin" add column if not exists "used_order_id" text null;`)
    this.addSql(`alter table if exists "sales_tax_certificate_origin" add column if not exists "used_at" timestamptz null;`)
    this.addSql(
      `update "sales_tax_certificate_origin" set "review_status" = 'pending' where "created_by" = 'customer' and "reviewed_at" is null;`,
    )
  }

  override async down(): Promise<void> {
    for (const c of ["review_status", "reviewed_by", "reviewed_at", "rejection_reason", "used_order_id", "used_at"])
      this.addSql(`alter table if exists "sales_tax_certificate_origin" drop column if exists "${c}";`)
  }
}
