-- Single sign-on (OpenID Connect): the provider's subject on a user and the second up to which a
-- back-channel logout refused the user's tokens; the requests waiting for the provider's callback;
-- the sessions begun through it (one-time handoff code, then the refresh token's jti and the ID token).
CREATE TABLE "sso_requests" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"binding_hash" text NOT NULL,
	"nonce" text NOT NULL,
	"code_verifier" text NOT NULL,
	"create_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_sessions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"handoff_hash" text,
	"refresh_jti" text,
	"id_token" text NOT NULL,
	"sid" text,
	"expires_at" timestamp with time zone NOT NULL,
	"create_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "oidc_subject" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sessions_revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sso_sessions" ADD CONSTRAINT "sso_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sso_requests_create_at_idx" ON "sso_requests" USING btree ("create_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_sessions_handoff_key" ON "sso_sessions" USING btree ("handoff_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_sessions_refresh_jti_key" ON "sso_sessions" USING btree ("refresh_jti");--> statement-breakpoint
CREATE INDEX "sso_sessions_expires_at_idx" ON "sso_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_oidc_subject_key" ON "users" USING btree ("oidc_subject");