-- The transaction date index carries each record's complaint date, so the complaint order under a
-- range of transaction dates reads the range's earliest and latest complaint from the index alone
-- (they bound the order's walk: ej-records.ts complaintBound).
DROP INDEX "ej_records_kind_date_idx";--> statement-breakpoint
CREATE INDEX "ej_records_kind_date_idx" ON "ej_records" USING btree ("kind","transaction_date" NULLS FIRST,"id") INCLUDE ("complaint_date");
