ALTER TABLE "dispute_status_previous" ADD COLUMN "rule_id" integer;--> statement-breakpoint
ALTER TABLE "dispute_status_previous" ADD COLUMN "clock_started_on" date;--> statement-breakpoint
ALTER TABLE "dispute_status_previous" ADD COLUMN "due_date" date;--> statement-breakpoint
ALTER TABLE "dispute_status_previous" ADD COLUMN "penalty_per_day" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "dispute_status_previous" ADD COLUMN "currency" text DEFAULT '' NOT NULL;