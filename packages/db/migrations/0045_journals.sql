CREATE TABLE "dispute_evidence" (
	"dispute_id" bigint PRIMARY KEY NOT NULL,
	"transaction_id" bigint,
	"verdict" text,
	"match" text NOT NULL,
	"candidates" integer DEFAULT 0 NOT NULL,
	"dispensed_amount" numeric(14, 2),
	"matched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dispute_evidence_match_check" CHECK ("dispute_evidence"."match" in ('rrn', 'stan', 'serial', 'card_amount_day', 'ambiguous', 'none'))
);
--> statement-breakpoint
CREATE TABLE "journal_counters" (
	"journal_id" bigint NOT NULL,
	"line" integer NOT NULL,
	"at" timestamp,
	"cassettes" jsonb NOT NULL,
	CONSTRAINT "journal_counters_journal_id_line_pk" PRIMARY KEY("journal_id","line")
);
--> statement-breakpoint
CREATE TABLE "journal_pages" (
	"journal_id" bigint NOT NULL,
	"first_line" integer NOT NULL,
	"line_count" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "journal_pages_journal_id_first_line_pk" PRIMARY KEY("journal_id","first_line")
);
--> statement-breakpoint
CREATE TABLE "journal_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"journal_id" bigint NOT NULL,
	"seq" integer NOT NULL,
	"kind" text NOT NULL,
	"atm_id" text,
	"at" timestamp,
	"day" date,
	"card_last4" text,
	"rrn" text,
	"stan" text,
	"serial" text,
	"response_code" text,
	"requested_amount" numeric(14, 2),
	"presented" integer[],
	"dispensed_amount" numeric(14, 2),
	"verdict" text,
	"reason" text DEFAULT '' NOT NULL,
	"line_from" integer NOT NULL,
	"line_to" integer NOT NULL,
	"evidence" integer[] DEFAULT '{}'::int[] NOT NULL,
	"cut" text,
	"continuation_journal_id" bigint,
	"continuation_line_from" integer,
	"continuation_line_to" integer,
	"continuation_evidence" integer[],
	"joined_to" bigint,
	CONSTRAINT "journal_transactions_cut_check" CHECK ("journal_transactions"."cut" is null or "journal_transactions"."cut" in ('start', 'end'))
);
--> statement-breakpoint
CREATE TABLE "journals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"sha256" text NOT NULL,
	"file_name" text DEFAULT '' NOT NULL,
	"atm_id" text,
	"day" date,
	"family" text NOT NULL,
	"line_count" integer NOT NULL,
	"unknown_lines" integer DEFAULT 0 NOT NULL,
	"size_bytes" bigint NOT NULL,
	"transactions" integer DEFAULT 0 NOT NULL,
	"charset" text,
	"anomalies" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"anomaly_kinds" text[] DEFAULT '{}'::text[] NOT NULL,
	"source" text NOT NULL,
	"email_id" bigint,
	"uploaded_by" integer,
	"create_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "journals_source_check" CHECK ("journals"."source" in ('mail', 'upload', 'folder'))
);
--> statement-breakpoint
ALTER TABLE "dispute_evidence" ADD CONSTRAINT "dispute_evidence_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute_evidence" ADD CONSTRAINT "dispute_evidence_transaction_id_journal_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."journal_transactions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_counters" ADD CONSTRAINT "journal_counters_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_pages" ADD CONSTRAINT "journal_pages_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_transactions" ADD CONSTRAINT "journal_transactions_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_transactions" ADD CONSTRAINT "journal_transactions_continuation_journal_id_journals_id_fk" FOREIGN KEY ("continuation_journal_id") REFERENCES "public"."journals"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_transactions" ADD CONSTRAINT "journal_transactions_joined_to_journal_transactions_id_fk" FOREIGN KEY ("joined_to") REFERENCES "public"."journal_transactions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journals" ADD CONSTRAINT "journals_email_id_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."emails"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journals" ADD CONSTRAINT "journals_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dispute_evidence_verdict_idx" ON "dispute_evidence" USING btree ("verdict","dispute_id");--> statement-breakpoint
CREATE INDEX "dispute_evidence_transaction_idx" ON "dispute_evidence" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "journal_transactions_atm_at_idx" ON "journal_transactions" USING btree ("atm_id","at");--> statement-breakpoint
CREATE INDEX "journal_transactions_rrn_idx" ON "journal_transactions" USING btree ("rrn");--> statement-breakpoint
CREATE INDEX "journal_transactions_stan_idx" ON "journal_transactions" USING btree ("stan");--> statement-breakpoint
CREATE INDEX "journal_transactions_atm_serial_idx" ON "journal_transactions" USING btree ("atm_id","serial");--> statement-breakpoint
CREATE INDEX "journal_transactions_card_idx" ON "journal_transactions" USING btree ("atm_id","day","card_last4");--> statement-breakpoint
CREATE UNIQUE INDEX "journal_transactions_journal_seq_key" ON "journal_transactions" USING btree ("journal_id","seq");--> statement-breakpoint
CREATE INDEX "journal_transactions_joined_idx" ON "journal_transactions" USING btree ("joined_to") WHERE "journal_transactions"."joined_to" is not null;--> statement-breakpoint
CREATE INDEX "journal_transactions_continuation_idx" ON "journal_transactions" USING btree ("continuation_journal_id") WHERE "journal_transactions"."continuation_journal_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "journals_sha256_key" ON "journals" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "journals_atm_day_idx" ON "journals" USING btree ("atm_id","day","id");--> statement-breakpoint
CREATE INDEX "journals_day_idx" ON "journals" USING btree ("day","id");--> statement-breakpoint
CREATE INDEX "journals_anomaly_kinds_idx" ON "journals" USING gin ("anomaly_kinds");--> statement-breakpoint
CREATE INDEX "journals_email_idx" ON "journals" USING btree ("email_id");--> statement-breakpoint
CREATE INDEX "disputes_atm_day_idx" ON "disputes" USING btree ("atm_id","transaction_date");