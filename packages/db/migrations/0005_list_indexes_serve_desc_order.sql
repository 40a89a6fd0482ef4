DROP INDEX "data_files_kind_create_idx";--> statement-breakpoint
DROP INDEX "ej_records_kind_date_idx";--> statement-breakpoint
DROP INDEX "ej_records_kind_id_idx";--> statement-breakpoint
DROP INDEX "emails_create_idx";--> statement-breakpoint
DROP INDEX "emails_category_create_idx";--> statement-breakpoint
DROP INDEX "emails_read_create_idx";--> statement-breakpoint
CREATE INDEX "data_files_kind_create_idx" ON "data_files" USING btree ("kind","create_at","id");--> statement-breakpoint
CREATE INDEX "ej_records_kind_date_idx" ON "ej_records" USING btree ("kind","transaction_date","id");--> statement-breakpoint
CREATE INDEX "ej_records_kind_id_idx" ON "ej_records" USING btree ("kind","id");--> statement-breakpoint
CREATE INDEX "emails_create_idx" ON "emails" USING btree ("create_at","id");--> statement-breakpoint
CREATE INDEX "emails_category_create_idx" ON "emails" USING btree ("category","create_at","id");--> statement-breakpoint
CREATE INDEX "emails_read_create_idx" ON "emails" USING btree ("is_read","create_at","id");