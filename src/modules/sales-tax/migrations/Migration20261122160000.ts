import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** Last-known effective rates per ZIP and TIC (models/last-known-rate.ts). */
export class Migration20261122160000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "sales_tax_last_known_rate" (
      "id" text not null,
      "zip" text not null,
      "tic" integer not null,
      "rate" text not null,
      "quoted_at" timestamptz not null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "deleted_at" timestamptz null,
      constraint "sales_tax_last_known_rate_pkey" primary key ("id")
    );`)
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_sales_tax_last_known_rate_zip_tic_unique" ON "sales_tax_last_known_rate" ("zip", "tic") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_sales_tax_last_known_rate_deleted_at" ON "sales_tax_last_known_rate" ("deleted_at") WHERE deleted_at IS NULL;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "sales_tax_last_known_rate" cascade;`)
  }
}
