DROP INDEX "ej_records_atm_idx";--> statement-breakpoint
DROP INDEX "ej_records_card_idx";--> statement-breakpoint
DROP INDEX "ej_records_subject_idx";--> statement-breakpoint
CREATE INDEX "ej_records_atm_idx" ON "ej_records" USING btree ("atm_id","kind","id");--> statement-breakpoint
CREATE INDEX "ej_records_card_idx" ON "ej_records" USING btree ("card_no","kind","id");--> statement-breakpoint
CREATE INDEX "ej_records_subject_idx" ON "ej_records" USING btree ("mail_subject","kind","id");