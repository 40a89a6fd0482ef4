CREATE TABLE "change_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"action" text NOT NULL,
	"payload" jsonb NOT NULL,
	"summary" text NOT NULL,
	"matched_then" integer NOT NULL,
	"maker_id" integer,
	"maker" text NOT NULL,
	"made_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"checker_id" integer,
	"checker" text,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	"result" jsonb,
	CONSTRAINT "change_requests_action_check" CHECK ("change_requests"."action" in ('resolve_credited', 'resolve_rejected', 'bulk_status')),
	CONSTRAINT "change_requests_status_check" CHECK ("change_requests"."status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "four_eyes_settings" (
	"action" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"threshold" integer DEFAULT 100 NOT NULL,
	"update_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "four_eyes_settings_action_check" CHECK ("four_eyes_settings"."action" in ('resolve_credited', 'resolve_rejected', 'bulk_status')),
	CONSTRAINT "four_eyes_settings_threshold_check" CHECK ("four_eyes_settings"."threshold" >= 0)
);
--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_maker_id_users_id_fk" FOREIGN KEY ("maker_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_checker_id_users_id_fk" FOREIGN KEY ("checker_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "change_requests_pending_idx" ON "change_requests" USING btree ("made_at") WHERE "change_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "change_requests_list_idx" ON "change_requests" USING btree ("id" desc);--> statement-breakpoint
INSERT INTO four_eyes_settings (action, enabled, threshold) VALUES ('resolve_credited', false, 0), ('resolve_rejected', false, 0), ('bulk_status', false, 100);
