import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** Who created each certificate made through this store (models/certificate-origin.ts). */
export class Migration20261122193000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "sales_tax_certificate_origin" (
      "id" text not null,
      "certificate_id" text not null,
      "customer_id" text not null,
      "created_by" text check ("created_by" in ('customer', 'staff')) not null,
      "actor_id" text null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "deleted_at" timestamptz null,
      constraint "sales_tax_certificate_origin_pkey" primary key ("id")
    );`)
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_sales_tax_certificate_origin_certificate_id_unique" ON "sales_tax_certificate_origin" ("certificate_id") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_sales_tax_certificate_origin_customer_id" ON "sales_tax_certificate_origin" ("customer_id") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_sales_tax_certificate_origin_deleted_at" ON "sales_tax_certificate_origin" ("deleted_at") WHERE deleted_at IS NULL;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "sales_tax_certificate_origin" cascade;`)
  }
}
