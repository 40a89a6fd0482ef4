-- MSP RefNo. as its order reads it (an empty one first ascending, last descending): 0033's index
-- kept them last, so neither direction could walk it and 1,000,000 records were sorted (111 ms).
DROP INDEX "ej_records_kind_msp_ref_idx";--> statement-breakpoint
CREATE INDEX "ej_records_kind_msp_ref_idx" ON "ej_records" USING btree ("kind","msp_ref_no" NULLS FIRST,"id");