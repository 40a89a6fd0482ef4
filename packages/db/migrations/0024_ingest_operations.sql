-- Ingestion operations: the sender mapping and ignore rules become admin lists (update_at),
-- each watched mailbox reports its state (mailbox_status), and the Mail flow screen reads what was
-- processed lately and the recent failures from two small indexes.
CREATE TABLE "mailbox_status" (
	"source" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"last_error" text,
	"last_sync_at" timestamp with time zone,
	"update_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ignore_rules" ADD COLUMN "update_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_senders" ADD COLUMN "update_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "email_sources_processed_idx" ON "email_sources" USING btree ("processed_at") WHERE "email_sources"."processed_at" is not null;--> statement-breakpoint
CREATE INDEX "emails_failures_idx" ON "emails" USING btree ("update_at","id") WHERE "emails"."processing_error" is not null and "emails"."category" = 'ej_not_found';