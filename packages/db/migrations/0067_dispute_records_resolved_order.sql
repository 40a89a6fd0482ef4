-- The resolved disputes' records in id order (tat=resolved in the dispute table's default order):
-- the newest disputes are open, and the walk of every record's id order read past them first.
-- Built while dispute_records takes no writes (a few seconds for 8,000,000 here).
CREATE INDEX IF NOT EXISTS "dispute_records_resolved_id_idx" ON "dispute_records" USING btree ("record_id") WHERE not "dispute_records"."open";