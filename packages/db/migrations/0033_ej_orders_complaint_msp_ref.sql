-- The dispute table ordered by Complaint Date and by MSP RefNo. as well, each from its own index.
CREATE INDEX "ej_records_kind_complaint_idx" ON "ej_records" USING btree ("kind","complaint_date" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "ej_records_kind_msp_ref_idx" ON "ej_records" USING btree ("kind","msp_ref_no","id");