import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** TIC assignments (models/tic-assignment.ts). */
export class Migration20261121171500 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "tic_assignment" (
      "id" text not null,
      "target_type" text check ("target_type" in ('product', 'product_type', 'product_category')) not null,
      "target_id" text not null,
      "tic" integer not null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "deleted_at" timestamptz null,
      constraint "tic_assignment_pkey" primary key ("id")
    );`)
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_tic_assignment_target_type_target_id_unique" ON "tic_assignment" ("target_type", "target_id") WHERE deleted_at IS NULL;`,
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tic_assignment_deleted_at" ON "tic_assignment" ("deleted_at") WHERE deleted_at IS NULL;`)
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "tic_assignment" cascade;`)
  }
}
