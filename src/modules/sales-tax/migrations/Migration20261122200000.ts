import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** The service-call log (models/call-log.ts). */
export class Migration20261122200000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "sales_tax_call_log" (
      "id" text not null,
      "at" timestamptz not null,
      "operation" text not null,
      "connection_id" text not null,
      "status" integer null,
      "latency_ms" integer not null,
      "attempt" integer not null,
      "cart_id" text null,
      "order_id" text null,
      "return_id" text null,
      "error_title" text null,
      "error_code" text null,
      "request_body" jsonb null,
      "response_body" jsonb null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "deleted_at" timestamptz null,
      constraint "sales_tax_call_log_pkey" primary key ("id")
    );`)
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sales_tax_call_log_at" ON "sales_tax_call_log" ("at") WHERE deleted_at IS NULL;`)
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_sales_tax_call_log_order_id" ON "sales_tax_call_log" ("order_id") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_sales_tax_call_log_operation_at" ON "sales_tax_call_log" ("operation", "at") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_sales_tax_call_log_deleted_at" ON "sales_tax_call_log" ("deleted_at") WHERE deleted_at IS NULL;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "sales_tax_call_log" cascade;`)
  }
}
