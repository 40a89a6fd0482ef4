CREATE TABLE "email_sources" (
	"email_id" bigint PRIMARY KEY NOT NULL,
	"raw" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"origin" text NOT NULL,
	"normalized_subject" text NOT NULL,
	"fetch_error" text,
	"processed_at" timestamp with time zone,
	"create_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ignore_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"field" text NOT NULL,
	"pattern" text NOT NULL,
	"create_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ignore_rules_field_check" CHECK ("ignore_rules"."field" in ('sender', 'subject'))
);
--> statement-breakpoint
CREATE TABLE "ingest_checkpoints" (
	"source" text PRIMARY KEY NOT NULL,
	"uid_validity" bigint NOT NULL,
	"last_uid" bigint NOT NULL,
	"update_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_senders" (
	"id" serial PRIMARY KEY NOT NULL,
	"sender" text NOT NULL,
	"organisation" text NOT NULL,
	"create_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subject_fingerprints" (
	"normalized_subject" text NOT NULL,
	"fingerprint" text NOT NULL,
	"email_id" bigint NOT NULL,
	CONSTRAINT "subject_fingerprints_normalized_subject_fingerprint_pk" PRIMARY KEY("normalized_subject","fingerprint")
);
--> statement-breakpoint
ALTER TABLE "email_sources" ADD CONSTRAINT "email_sources_email_id_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."emails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subject_fingerprints" ADD CONSTRAINT "subject_fingerprints_email_id_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."emails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_sources_pending_idx" ON "email_sources" USING btree ("email_id") WHERE "email_sources"."processed_at" is null;--> statement-breakpoint
CREATE INDEX "email_sources_subject_idx" ON "email_sources" USING btree ("normalized_subject","email_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ignore_rules_key" ON "ignore_rules" USING btree ("field",lower("pattern"));--> statement-breakpoint
CREATE UNIQUE INDEX "mail_senders_sender_key" ON "mail_senders" USING btree (lower("sender"));--> statement-breakpoint
CREATE INDEX "subject_fingerprints_email_idx" ON "subject_fingerprints" USING btree ("email_id");