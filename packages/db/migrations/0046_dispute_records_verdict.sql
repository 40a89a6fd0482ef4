ALTER TABLE "dispute_records" ADD COLUMN "verdict" text;--> statement-breakpoint
-- Created here with the body disputes/functions.sql holds (that file is its one current definition).
CREATE OR REPLACE FUNCTION dispute_evidence_verdict_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE $update$
      UPDATE dispute_records l SET verdict = e.verdict
      FROM (SELECT DISTINCT dispute_id FROM new_rows) t JOIN dispute_evidence e ON e.dispute_id = t.dispute_id
      WHERE l.dispute_id = t.dispute_id AND l.verdict IS DISTINCT FROM e.verdict
    $update$;
  ELSE
    -- An update may move a row to another dispute: both its old and its new dispute are looked at.
    EXECUTE format($update$
      UPDATE dispute_records l SET verdict = e.verdict
      FROM (%s) t LEFT JOIN dispute_evidence e ON e.dispute_id = t.dispute_id
      WHERE l.dispute_id = t.dispute_id AND l.verdict IS DISTINCT FROM e.verdict
    $update$, CASE TG_OP WHEN 'UPDATE' THEN 'SELECT dispute_id FROM old_rows UNION SELECT dispute_id FROM new_rows' ELSE 'SELECT DISTINCT dispute_id FROM old_rows' END);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER dispute_evidence_verdict_insert AFTER INSERT ON dispute_evidence REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_evidence_verdict_apply();
--> statement-breakpoint
CREATE TRIGGER dispute_evidence_verdict_update AFTER UPDATE ON dispute_evidence REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_evidence_verdict_apply();
--> statement-breakpoint
CREATE TRIGGER dispute_evidence_verdict_delete AFTER DELETE ON dispute_evidence REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_evidence_verdict_apply();
--> statement-breakpoint
-- The copies of the evidence there is. dispute_counts holds no verdict: its update trigger is kept
-- out of the backfill (the body at hand may be an older one that rewrites every key twice).
ALTER TABLE "dispute_records" DISABLE TRIGGER dispute_counts_update;
--> statement-breakpoint
UPDATE "dispute_records" l SET "verdict" = e.verdict FROM "dispute_evidence" e WHERE e.dispute_id = l.dispute_id AND e.verdict IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "dispute_records" ENABLE TRIGGER dispute_counts_update;
--> statement-breakpoint
CREATE INDEX "dispute_records_verdict_idx" ON "dispute_records" USING btree ("verdict","record_id") WHERE "dispute_records"."verdict" is not null;
