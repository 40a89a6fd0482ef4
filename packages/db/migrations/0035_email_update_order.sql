-- The email lists ordered by Last Update as well: all, each category, read and unread.
CREATE INDEX "emails_update_idx" ON "emails" USING btree ("update_at","id");--> statement-breakpoint
CREATE INDEX "emails_category_update_idx" ON "emails" USING btree ("category","update_at","id");--> statement-breakpoint
CREATE INDEX "emails_read_update_idx" ON "emails" USING btree ("is_read","update_at","id");