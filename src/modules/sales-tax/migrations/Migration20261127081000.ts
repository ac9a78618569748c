import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** A single-purchase certificate's claim at completion (models/certificate-origin.ts). */
export class Migration20261127081000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "sales_tax_certificate_origin" add column if not exists "claimed_cart_id" text null;`)
    this.addSql(`alter table if exists "sales_tax_certificate_origin" add column if not exists "claimed_at" timestamptz null;`)
  }

  override async down(): Promise<void> {
    for (const c of ["claimed_cart_id", "claimed_at"])
      this.addSql(`alter table if exists "sales_tax_certificate_origin" drop column if exists "${c}";`)
  }
}
