import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** Filing records and their refunds (models/filing-record.ts, models/filing-refund.ts). */
export class Migration20261121170000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "sales_tax_filing_record" (
      "id" text not null,
      "order_id" text not null,
      "kind" text check ("kind" in ('order', 'exchange')) not null default 'order',
      "parent_order_id" text null,
      "cart_id" text null,
      "customer_id" text null,
      "state" text check ("state" in ('pending', 'filed', 'completed', 'partially_refunded', 'refunded', 'voided', 'failed', 'skipped')) not null default 'pending',
      "filing_path" text check ("filing_path" in ('cart', 'direct')) null,
      "completion_mode" text check ("completion_mode" in ('placed', 'captured', 'fulfilled')) not null default 'placed',
      "snapshot" jsonb null,
      "charged_tax" numeric null,
      "filed_tax" numeric null,
      "requoted_tax" numeric null,
      "tax_difference" numeric null,
      "filed_at" timestamptz null,
      "completion_requested_at" timestamptz null,
      "completed_at" timestamptz null,
      "cancel_requested_at" timestamptz null,
      "voided_at" timestamptz null,
      "attempts" integer not null default 0,
      "next_attempt_at" timestamptz null,
      "last_error" text null,
      "last_step" text null,
      "raw_charged_tax" jsonb null,
      "raw_filed_tax" jsonb null,
      "raw_requoted_tax" jsonb null,
      "raw_tax_difference" jsonb null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "deleted_at" timestamptz null,
      constraint "sales_tax_filing_record_pkey" primary key ("id")
    );`)
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_sales_tax_filing_record_order_id_unique" ON "sales_tax_filing_record" ("order_id") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_sales_tax_filing_record_state_next_attempt_at" ON "sales_tax_filing_record" ("state", "next_attempt_at") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_sales_tax_filing_record_deleted_at" ON "sales_tax_filing_record" ("deleted_at") WHERE deleted_at IS NULL;`,
    )

    this.addSql(`create table if not exists "sales_tax_filing_refund" (
      "id" text not null,
      "order_id" text not null,
      "source_type" text check ("source_type" in ('return', 'claim', 'exchange', 'cancel')) not null,
      "source_id" text not null,
      "idempotency_key" text not null,
      "items" jsonb not null,
      "state" text check ("state" in ('pending', 'refunded', 'superseded', 'failed')) not null default 'pending',
      "refunded_tax" numeric null,
      "returned_at" timestamptz null,
      "refunded_at" timestamptz null,
      "attempts" integer not null default 0,
      "last_error" text null,
      "record_id" text not null,
      "raw_refunded_tax" jsonb null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "deleted_at" timestamptz null,
      constraint "sales_tax_filing_refund_pkey" primary key ("id")
    );`)
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_sales_tax_filing_refund_idempotency_key_unique" ON "sales_tax_filing_refund" ("idempotency_key") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_sales_tax_filing_refund_record_id" ON "sales_tax_filing_refund" ("record_id") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_sales_tax_filing_refund_deleted_at" ON "sales_tax_filing_refund" ("deleted_at") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `alter table if exists "sales_tax_filing_refund" add constraint "sales_tax_filing_refund_record_id_foreign" foreign key ("record_id") references "sales_tax_filing_record" ("id") on update cascade on delete cascade;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "sales_tax_filing_refund" drop constraint if exists "sales_tax_filing_refund_record_id_foreign";`)
    this.addSql(`drop table if exists "sales_tax_filing_refund" cascade;`)
    this.addSql(`drop table if exists "sales_tax_filing_record" cascade;`)
  }
}
