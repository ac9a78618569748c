import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** Economic nexus per state (models/nexus-state.ts). */
export class Migration20261126090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "sales_tax_nexus_state" (
      "id" text not null,
      "state" text not null,
      "registered" boolean not null default false,
      "warnings_given" jsonb null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "deleted_at" timestamptz null,
      constraint "sales_tax_nexus_state_pkey" primary key ("id")
    );`)
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_sales_tax_nexus_state_state_unique" ON "sales_tax_nexus_state" ("state") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_sales_tax_nexus_state_deleted_at" ON "sales_tax_nexus_state" ("deleted_at") WHERE deleted_at IS NULL;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "sales_tax_nexus_state" cascade;`)
  }
}
