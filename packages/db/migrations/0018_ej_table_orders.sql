-- The EJ table's orders (date, amounts, ATM ID): each an index (kind, column, id), an empty value the
-- smallest, walked forward for ascending and backward for descending. (kind, atm_id, id) still finds
-- a filter's ATM values with their ids, as (atm_id, kind, id) did.
DROP INDEX "ej_records_kind_date_idx";--> statement-breakpoint
DROP INDEX "ej_records_atm_idx";--> statement-breakpoint
CREATE INDEX "ej_records_kind_amt_idx" ON "ej_records" USING btree ("kind","transaction_amt" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "ej_records_kind_dispute_amt_idx" ON "ej_records" USING btree ("kind","dispute_amt" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "ej_records_kind_date_idx" ON "ej_records" USING btree ("kind","transaction_date" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "ej_records_atm_idx" ON "ej_records" USING btree ("kind","atm_id","id");