ALTER TABLE "dispute_records" ADD COLUMN "next_deadline" date;--> statement-breakpoint
ALTER TABLE "disputes" ADD COLUMN "rule_deadline" date;--> statement-breakpoint
ALTER TABLE "disputes" ADD COLUMN "rule_deadline_clock" text;--> statement-breakpoint
ALTER TABLE "disputes" ADD COLUMN "next_deadline" date GENERATED ALWAYS AS (CASE WHEN status <> 'resolved' THEN least(due_date, rule_deadline) END) STORED;--> statement-breakpoint
-- Created here with the body disputes/functions.sql holds (that file is its one current definition).
-- The nearest running rule-set clock of disputes (all, or those given): its due day and name kept on
-- the dispute (rule_deadline, rule_deadline_clock), so that next_deadline, the least of it and the
-- TAT due date, is a column the lists sort by (dispute_rule_clocks computes a clock when read: too
-- slow to order a million disputes by). Only disputes that may run one are read: open ones with an
-- active rule set of their network, and those that ran one. EXECUTE plans each call for its ids.
CREATE OR REPLACE FUNCTION dispute_rule_deadlines_refresh(only_ids bigint[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE changed integer;
BEGIN
  EXECUTE format($update$
    WITH nearest AS (
      SELECT d.id, n.due_on, n.clock_name
      FROM %s d
      LEFT JOIN LATERAL (
        SELECT c.due_on, c.clock_name FROM dispute_rule_clocks(d.id) c
        WHERE c.stopped_on IS NULL ORDER BY c.due_on, c.clock_key LIMIT 1
      ) n ON d.status <> 'resolved'
      WHERE d.rule_deadline IS NOT NULL
         OR (d.status <> 'resolved' AND EXISTS (
              SELECT 1 FROM rule_sets s WHERE s.active AND (s.network = '' OR lower(s.network) = lower(d.network))))
    )
    UPDATE disputes d SET rule_deadline = n.due_on, rule_deadline_clock = n.clock_name
    FROM nearest n
    WHERE d.id = n.id AND (d.rule_deadline, d.rule_deadline_clock) IS DISTINCT FROM (n.due_on, n.clock_name)
  $update$, CASE WHEN only_ids IS NULL THEN 'disputes' ELSE '(SELECT * FROM disputes WHERE id = ANY ($1))' END) USING only_ids;
  GET DIAGNOSTICS changed = ROW_COUNT;
  RETURN changed;
END $$;

--> statement-breakpoint
-- What moves a rule-set clock: a dispute made, or its network, status or dates changed (not its own
-- rule_deadline: that write ends here), a stage entered or taken back, and any change to the rule
-- sets, their clocks or calendars (every dispute then). Transition tables joined by EXECUTE, planned
-- for this statement's rows.
-- Triggers: dispute_rule_deadlines_insert, dispute_rule_deadlines_update on disputes;
-- dispute_stages_deadlines_insert, _update, _delete on dispute_stages; rule_sets_deadlines,
-- rule_clocks_deadlines, holiday_calendars_deadlines (migration 0058).
CREATE OR REPLACE FUNCTION dispute_rule_deadlines_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids bigint[];
BEGIN
  IF TG_TABLE_NAME IN ('rule_sets', 'rule_clocks', 'holiday_calendars') THEN
    PERFORM dispute_rule_deadlines_refresh(NULL);
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'disputes' AND TG_OP = 'INSERT' THEN
    EXECUTE 'SELECT array_agg(id) FROM new_rows WHERE status <> ''resolved''' INTO ids;
  ELSIF TG_TABLE_NAME = 'disputes' THEN
    EXECUTE $ids$
      SELECT array_agg(n.id) FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.network, n.status, n.stopped_on, n.status_at, n.transaction_date, n.complaint_date)
            IS DISTINCT FROM (o.network, o.status, o.stopped_on, o.status_at, o.transaction_date, o.complaint_date)
    $ids$ INTO ids;
  ELSE
    EXECUTE format('SELECT array_agg(DISTINCT dispute_id) FROM (%s) t', CASE TG_OP
      WHEN 'INSERT' THEN 'SELECT dispute_id FROM new_rows'
      WHEN 'UPDATE' THEN 'SELECT dispute_id FROM old_rows UNION SELECT dispute_id FROM new_rows'
      ELSE 'SELECT dispute_id FROM old_rows' END) INTO ids;
  END IF;
  IF ids IS NOT NULL THEN PERFORM dispute_rule_deadlines_refresh(ids); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER dispute_rule_deadlines_insert AFTER INSERT ON disputes REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_rule_deadlines_apply();
--> statement-breakpoint
CREATE TRIGGER dispute_rule_deadlines_update AFTER UPDATE ON disputes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_rule_deadlines_apply();
--> statement-breakpoint
CREATE TRIGGER dispute_stages_deadlines_insert AFTER INSERT ON dispute_stages REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_rule_deadlines_apply();
--> statement-breakpoint
CREATE TRIGGER dispute_stages_deadlines_update AFTER UPDATE ON dispute_stages REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_rule_deadlines_apply();
--> statement-breakpoint
CREATE TRIGGER dispute_stages_deadlines_delete AFTER DELETE ON dispute_stages REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_rule_deadlines_apply();
--> statement-breakpoint
CREATE TRIGGER rule_sets_deadlines AFTER INSERT OR UPDATE OR DELETE ON rule_sets
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_rule_deadlines_apply();
--> statement-breakpoint
CREATE TRIGGER rule_clocks_deadlines AFTER INSERT OR UPDATE OR DELETE ON rule_clocks
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_rule_deadlines_apply();
--> statement-breakpoint
CREATE TRIGGER holiday_calendars_deadlines AFTER INSERT OR UPDATE OR DELETE ON holiday_calendars
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_rule_deadlines_apply();
--> statement-breakpoint
-- The deadlines of the disputes there are, then their records' copies. The copies trigger at hand
-- may be an older body that copies no deadline, so the copy is written here; dispute_counts holds no
-- deadline: its update trigger is kept out of it.
SELECT dispute_rule_deadlines_refresh(NULL);
--> statement-breakpoint
ALTER TABLE "dispute_records" DISABLE TRIGGER dispute_counts_update;
--> statement-breakpoint
UPDATE "dispute_records" l SET "next_deadline" = d.next_deadline FROM "disputes" d WHERE d.id = l.dispute_id AND d.next_deadline IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "dispute_records" ENABLE TRIGGER dispute_counts_update;
--> statement-breakpoint
CREATE INDEX "dispute_records_next_asc_idx" ON "dispute_records" USING btree ("next_deadline" asc nulls last,"record_id");
--> statement-breakpoint
CREATE INDEX "dispute_records_next_desc_idx" ON "dispute_records" USING btree ("next_deadline" desc nulls last,"record_id" desc);
