-- Mailboxes as data: the ones an admin adds on the Mailboxes screen, each watched at once; secrets
-- sealed (AES-256-GCM, the bank passwords' key), one row per mailbox and folder; and when each watched
-- mailbox was first seen, so that one that never synced is reported stalled after the threshold.
CREATE TABLE "mailboxes" (
	"id" serial PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"port" integer NOT NULL,
	"tls" boolean DEFAULT true NOT NULL,
	"username" text NOT NULL,
	"folder" text DEFAULT 'INBOX' NOT NULL,
	"auth_method" text NOT NULL,
	"token_url" text,
	"client_id" text,
	"scope" text,
	"secret_encrypted" "bytea",
	"refresh_token_encrypted" "bytea",
	"enabled" boolean DEFAULT true NOT NULL,
	"create_at" timestamp with time zone DEFAULT now() NOT NULL,
	"update_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mailboxes_auth_method_check" CHECK ("mailboxes"."auth_method" in ('password', 'oauth2-client-credentials', 'oauth2-refresh-token'))
);
--> statement-breakpoint
ALTER TABLE "mailbox_status" ADD COLUMN "create_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "mailboxes_key" ON "mailboxes" USING btree (lower("username"),lower("host"),"port","folder");