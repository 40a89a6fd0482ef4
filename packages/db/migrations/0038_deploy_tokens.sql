-- Deploy tokens: one per team's remote (or the configured all-remotes one), kept as a SHA-256.
CREATE TABLE "deploy_tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"remote" text,
	"token_hash" "bytea" NOT NULL,
	"configured" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"create_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "deploy_tokens" ADD CONSTRAINT "deploy_tokens_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deploy_tokens_hash_key" ON "deploy_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "deploy_tokens_live_name_key" ON "deploy_tokens" USING btree ("name") WHERE "deploy_tokens"."revoked_at" is null;