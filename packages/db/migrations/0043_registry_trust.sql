-- Registry trust: the origins each remote may come from, pinned hashes, withdrawn and rolled-back marks.
CREATE TABLE "remote_origins" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"remote" text NOT NULL,
	"origin" text NOT NULL,
	"created_by" integer,
	"create_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "remote_releases" ADD COLUMN "entry" text;--> statement-breakpoint
ALTER TABLE "remote_releases" ADD COLUMN "entry_integrity" text;--> statement-breakpoint
ALTER TABLE "remote_releases" ADD COLUMN "manifest_integrity" text;--> statement-breakpoint
ALTER TABLE "remote_releases" ADD COLUMN "withdrawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "remote_releases" ADD COLUMN "rolled_back_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "remote_origins" ADD CONSTRAINT "remote_origins_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "remote_origins_key" ON "remote_origins" USING btree ("remote","origin");