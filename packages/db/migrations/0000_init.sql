CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_msps" (
	"id" serial PRIMARY KEY NOT NULL,
	"msp" text NOT NULL,
	"bank_name" text NOT NULL,
	"create_at" timestamp with time zone DEFAULT now() NOT NULL,
	"update_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_passwords" (
	"id" serial PRIMARY KEY NOT NULL,
	"bank_name" text NOT NULL,
	"bank_pass_encrypted" "bytea" NOT NULL,
	"create_at" timestamp with time zone DEFAULT now() NOT NULL,
	"update_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_file_rows" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"data_file_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"atm_id" text DEFAULT '' NOT NULL,
	"card_no" text DEFAULT '' NOT NULL,
	"txt_no" text DEFAULT '' NOT NULL,
	"txt_date" date,
	"txt_amt" numeric(14, 2),
	"dispute_amt" numeric(14, 2),
	"overage" numeric(14, 2),
	"msp_remarks" text DEFAULT '' NOT NULL,
	"msp_ref_no" text DEFAULT '' NOT NULL,
	"short_desc" text DEFAULT '' NOT NULL,
	"ej_error" text DEFAULT '' NOT NULL,
	"complaint_date" date,
	"short_description" text DEFAULT '' NOT NULL,
	"mail_received_from" text DEFAULT '' NOT NULL,
	"mail_subject" text DEFAULT '' NOT NULL,
	"response_code" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_files" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"subject_name" text DEFAULT '' NOT NULL,
	"email_id" bigint,
	"create_at" timestamp with time zone DEFAULT now() NOT NULL,
	"update_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_files_kind_check" CHECK ("data_files"."kind" in ('text', 'missing', 'missing_txn', 'between_successful', 'excel', 'pdf', 'other'))
);
--> statement-breakpoint
CREATE TABLE "ej_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text DEFAULT 'dispute' NOT NULL,
	"atm_id" text DEFAULT '' NOT NULL,
	"card_no" text DEFAULT '' NOT NULL,
	"txt_no" text DEFAULT '' NOT NULL,
	"transaction_date" date,
	"transaction_amt" numeric(14, 2),
	"dispute_amt" numeric(14, 2),
	"overage" numeric(14, 2),
	"msp_remarks" text DEFAULT '' NOT NULL,
	"msp_ref_no" text DEFAULT '' NOT NULL,
	"short_desc_ej_error" text DEFAULT '' NOT NULL,
	"ej_error" text DEFAULT '' NOT NULL,
	"complaint_date" date,
	"short_description" text DEFAULT '' NOT NULL,
	"response_code" text DEFAULT '' NOT NULL,
	"mail_received_from" text DEFAULT '' NOT NULL,
	"mail_subject" text DEFAULT '' NOT NULL,
	"bank_name" text DEFAULT '' NOT NULL,
	"file_name" text DEFAULT '' NOT NULL,
	"email_id" bigint,
	"create_at" timestamp with time zone DEFAULT now() NOT NULL,
	"update_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ej_records_kind_check" CHECK ("ej_records"."kind" in ('dispute', 'overage', 'succeeding'))
);
--> statement-breakpoint
CREATE TABLE "emails" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"message_id" text,
	"email_from" text DEFAULT '' NOT NULL,
	"email_to" text DEFAULT '' NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"normalized_subject" text DEFAULT '' NOT NULL,
	"email_body" text DEFAULT '' NOT NULL,
	"email_body_html" text DEFAULT '' NOT NULL,
	"num_of_email" integer DEFAULT 1 NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"category" text DEFAULT 'ej_not_found' NOT NULL,
	"is_read" boolean DEFAULT false NOT NULL,
	"json_load_data" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"processing_error" text,
	"create_at" timestamp with time zone DEFAULT now() NOT NULL,
	"update_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "emails_category_check" CHECK ("emails"."category" in ('processed', 'ej_not_found', 'ignored', 'same_subject', 'same_subject_processing'))
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"ip" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"last_login" timestamp with time zone,
	"create_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_file_rows" ADD CONSTRAINT "data_file_rows_data_file_id_data_files_id_fk" FOREIGN KEY ("data_file_id") REFERENCES "public"."data_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_files" ADD CONSTRAINT "data_files_email_id_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."emails"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ej_records" ADD CONSTRAINT "ej_records_email_id_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."emails"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "bank_msps_pair_key" ON "bank_msps" USING btree (lower("bank_name"),lower("msp"));--> statement-breakpoint
CREATE UNIQUE INDEX "bank_passwords_bank_lower_key" ON "bank_passwords" USING btree (lower("bank_name"));--> statement-breakpoint
CREATE INDEX "data_file_rows_file_pos_idx" ON "data_file_rows" USING btree ("data_file_id","position");--> statement-breakpoint
CREATE INDEX "data_files_kind_create_idx" ON "data_files" USING btree ("kind","create_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "data_files_email_idx" ON "data_files" USING btree ("email_id");--> statement-breakpoint
CREATE INDEX "data_files_name_trgm_idx" ON "data_files" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "data_files_subject_trgm_idx" ON "data_files" USING gin ("subject_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "ej_records_kind_date_idx" ON "ej_records" USING btree ("kind","transaction_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ej_records_kind_id_idx" ON "ej_records" USING btree ("kind","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ej_records_atm_idx" ON "ej_records" USING btree ("atm_id");--> statement-breakpoint
CREATE INDEX "ej_records_card_idx" ON "ej_records" USING btree ("card_no");--> statement-breakpoint
CREATE INDEX "ej_records_email_idx" ON "ej_records" USING btree ("email_id");--> statement-breakpoint
CREATE INDEX "ej_records_atm_trgm_idx" ON "ej_records" USING gin ("atm_id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "ej_records_card_trgm_idx" ON "ej_records" USING gin ("card_no" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "ej_records_bank_trgm_idx" ON "ej_records" USING gin ("bank_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "ej_records_subject_trgm_idx" ON "ej_records" USING gin ("mail_subject" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "ej_records_from_trgm_idx" ON "ej_records" USING gin ("mail_received_from" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "emails_message_id_key" ON "emails" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "emails_received_idx" ON "emails" USING btree ("received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "emails_create_idx" ON "emails" USING btree ("create_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "emails_category_received_idx" ON "emails" USING btree ("category","received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "emails_read_received_idx" ON "emails" USING btree ("is_read","received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "emails_subject_trgm_idx" ON "emails" USING gin ("subject" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "emails_from_trgm_idx" ON "emails" USING gin ("email_from" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "login_failures_email_at_idx" ON "login_failures" USING btree ("email","at");--> statement-breakpoint
CREATE INDEX "login_failures_ip_at_idx" ON "login_failures" USING btree ("ip","at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_key" ON "users" USING btree (lower("email"));