DROP INDEX "emails_received_idx";--> statement-breakpoint
DROP INDEX "emails_category_received_idx";--> statement-breakpoint
DROP INDEX "emails_read_received_idx";--> statement-breakpoint
CREATE INDEX "emails_category_create_idx" ON "emails" USING btree ("category","create_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "emails_read_create_idx" ON "emails" USING btree ("is_read","create_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "emails_received_counts_idx" ON "emails" USING btree ("received_at","category","is_read");