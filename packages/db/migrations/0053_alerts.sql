CREATE TABLE "alert_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"rule_id" integer,
	"dispute_id" bigint,
	"clock_key" text DEFAULT '' NOT NULL,
	"clock_name" text DEFAULT '' NOT NULL,
	"due_on" date NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"leased_by" text,
	"last_answer" text DEFAULT '' NOT NULL,
	"sent_at" timestamp with time zone,
	"create_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_deliveries_kind_check" CHECK ("alert_deliveries"."kind" in ('warning', 'digest')),
	CONSTRAINT "alert_deliveries_status_check" CHECK ("alert_deliveries"."status" in ('pending', 'sending', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "alert_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"clocks" text[] DEFAULT '{}'::text[] NOT NULL,
	"days_before" integer NOT NULL,
	"to_owner" boolean DEFAULT true NOT NULL,
	"to_addresses" text[] DEFAULT '{}'::text[] NOT NULL,
	"channel" text NOT NULL,
	"webhook_url" text,
	"webhook_secret_encrypted" "bytea",
	"hours_from" smallint DEFAULT 9 NOT NULL,
	"hours_to" smallint DEFAULT 18 NOT NULL,
	"weekdays" smallint[] DEFAULT '{1,2,3,4,5}'::smallint[] NOT NULL,
	"time_zone" text DEFAULT 'Asia/Kolkata' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"create_at" timestamp with time zone DEFAULT now() NOT NULL,
	"update_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_rules_channel_check" CHECK ("alert_rules"."channel" in ('email', 'webhook')),
	CONSTRAINT "alert_rules_days_check" CHECK ("alert_rules"."days_before" between 0 and 60),
	CONSTRAINT "alert_rules_hours_check" CHECK ("alert_rules"."hours_from" between 0 and 23 and "alert_rules"."hours_to" between 1 and 24 and "alert_rules"."hours_from" < "alert_rules"."hours_to"),
	CONSTRAINT "alert_rules_webhook_check" CHECK (("alert_rules"."channel" = 'webhook') = ("alert_rules"."webhook_url" is not null))
);
--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_deliveries_warning_key" ON "alert_deliveries" USING btree ("rule_id","dispute_id","clock_key","due_on","recipient") WHERE "alert_deliveries"."kind" = 'warning';--> statement-breakpoint
CREATE UNIQUE INDEX "alert_deliveries_digest_key" ON "alert_deliveries" USING btree ("recipient","due_on") WHERE "alert_deliveries"."kind" = 'digest';--> statement-breakpoint
CREATE INDEX "alert_deliveries_due_idx" ON "alert_deliveries" USING btree ("next_attempt_at","id") WHERE "alert_deliveries"."status" in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "alert_deliveries_list_idx" ON "alert_deliveries" USING btree ("id" desc);--> statement-breakpoint
CREATE UNIQUE INDEX "alert_rules_name_key" ON "alert_rules" USING btree (lower("name"));