-- Canary releases: a remote's next release for a share of the operators first, and the operators
-- each release failed to load for (the canary rolls back by itself past a threshold).
CREATE TABLE "remote_load_failures" (
	"release_id" bigint NOT NULL,
	"user_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "remote_load_failures_release_id_user_id_pk" PRIMARY KEY("release_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "remote_current" ADD COLUMN "canary_release_id" bigint;--> statement-breakpoint
ALTER TABLE "remote_current" ADD COLUMN "canary_percent" integer;--> statement-breakpoint
ALTER TABLE "remote_current" ADD COLUMN "canary_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "remote_load_failures" ADD CONSTRAINT "remote_load_failures_release_id_remote_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."remote_releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_load_failures" ADD CONSTRAINT "remote_load_failures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_current" ADD CONSTRAINT "remote_current_canary_release_id_remote_releases_id_fk" FOREIGN KEY ("canary_release_id") REFERENCES "public"."remote_releases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_current" ADD CONSTRAINT "remote_current_canary_check" CHECK (("remote_current"."canary_release_id" is null and "remote_current"."canary_percent" is null) or ("remote_current"."canary_release_id" is not null and "remote_current"."canary_percent" between 1 and 99));