-- Independent delivery: the remote registry. Every accepted release of a remote (immutable,
-- one per name and version) and which one the shell loads now; deploy and rollback switch
-- remote_current in one transaction, and the audit log says who did it.
CREATE TABLE "remote_current" (
	"name" text PRIMARY KEY NOT NULL,
	"release_id" bigint NOT NULL,
	"update_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "remote_releases" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"version" text NOT NULL,
	"manifest" text NOT NULL,
	"descriptor" jsonb NOT NULL,
	"deployed_by" text NOT NULL,
	"deployed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "remote_current" ADD CONSTRAINT "remote_current_release_id_remote_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."remote_releases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "remote_releases_version_key" ON "remote_releases" USING btree ("name","version");