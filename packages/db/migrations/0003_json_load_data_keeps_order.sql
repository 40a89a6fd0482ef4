ALTER TABLE "emails" ALTER COLUMN "json_load_data" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "emails" ALTER COLUMN "json_load_data" SET DEFAULT '[]'::json;