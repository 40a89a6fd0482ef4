CREATE TABLE "dispute_status_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"actor" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text NOT NULL,
	"outcome" text,
	"note" text NOT NULL,
	"disputes" integer NOT NULL,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "dispute_status_previous" (
	"change_id" bigint NOT NULL,
	"dispute_id" bigint NOT NULL,
	"status" text NOT NULL,
	"outcome" text,
	"stopped_on" date,
	"status_source" text NOT NULL,
	"status_reason" text NOT NULL,
	"status_by" text NOT NULL,
	"status_at" timestamp with time zone NOT NULL,
	CONSTRAINT "dispute_status_previous_change_id_dispute_id_pk" PRIMARY KEY("change_id","dispute_id")
);
--> statement-breakpoint
ALTER TABLE "dispute_status_changes" ADD CONSTRAINT "dispute_status_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute_status_previous" ADD CONSTRAINT "dispute_status_previous_change_id_dispute_status_changes_id_fk" FOREIGN KEY ("change_id") REFERENCES "public"."dispute_status_changes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute_status_previous" ADD CONSTRAINT "dispute_status_previous_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dispute_status_changes_at_idx" ON "dispute_status_changes" USING btree ("at");--> statement-breakpoint
CREATE INDEX "dispute_status_previous_dispute_idx" ON "dispute_status_previous" USING btree ("dispute_id");