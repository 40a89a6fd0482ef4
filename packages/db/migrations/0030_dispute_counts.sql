CREATE TABLE "dispute_counts" (
	"open" boolean NOT NULL,
	"due_date" date,
	"clock_started_on" date,
	"penalty_per_day" numeric(14, 2) NOT NULL,
	"currency" text NOT NULL,
	"transaction_day" date,
	"bank_name" text NOT NULL,
	"mail_received_from" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "dispute_counts_key" UNIQUE NULLS NOT DISTINCT("open","due_date","clock_started_on","penalty_per_day","currency","transaction_day","bank_name","mail_received_from")
);
--> statement-breakpoint
ALTER TABLE "dispute_records" ADD COLUMN "open" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "dispute_records" ADD COLUMN "due_date" date;
--> statement-breakpoint
ALTER TABLE "dispute_records" ADD COLUMN "clock_started_on" date;
--> statement-breakpoint
ALTER TABLE "dispute_records" ADD COLUMN "penalty_per_day" numeric(14, 2) DEFAULT '0' NOT NULL;
--> statement-breakpoint
ALTER TABLE "dispute_records" ADD COLUMN "currency" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "dispute_records" ADD COLUMN "settled_penalty" numeric(14, 2);
--> statement-breakpoint
ALTER TABLE "dispute_records" ADD COLUMN "transaction_date" date;
--> statement-breakpoint
ALTER TABLE "dispute_records" ADD COLUMN "bank_name" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "dispute_records" ADD COLUMN "mail_received_from" text DEFAULT '' NOT NULL;
--> statement-breakpoint
-- dispute_records_link of 0029, its unlinked records found once, before anything is written;
-- then every record not linked yet is (a database upgraded from before 0029), before the
-- copies below are taken.
CREATE OR REPLACE FUNCTION dispute_records_link(only_email bigint) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  unlinked bigint[];
  joined bigint[];
  created bigint[];
  linked integer := 0;
  n integer;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('dispute_records_link'));
  -- Linking everything (a migration, a seed) writes as many rows as the tables held: fresh
  -- statistics after each step, or the next is planned for the tables as they were (a nested loop
  -- over a table thought empty took hours at 1,000,000 records).
  IF only_email IS NULL THEN ANALYZE ej_records, disputes, dispute_records; END IF;
  -- The records without a dispute, found before anything is written: an anti-join read while its
  -- own INSERT grows dispute_records rescans the rows written so far for every record (on a table
  -- analyzed empty), and linking 800,000 records ran for hours.
  SELECT coalesce(array_agg(r.id), '{}') INTO unlinked FROM ej_records r
  WHERE r.kind = 'dispute' AND (only_email IS NULL OR r.email_id = only_email)
    AND NOT EXISTS (SELECT 1 FROM dispute_records l WHERE l.record_id = r.id);
  -- Records of a dispute there is already.
  WITH fresh AS (
    SELECT r.id, r.atm_id, r.txt_no, r.card_no FROM ej_records r JOIN unnest(unlinked) AS u(id) ON u.id = r.id
    WHERE r.atm_id <> '' AND r.txt_no <> ''
  ), matched AS (
    INSERT INTO dispute_records (record_id, dispute_id)
    SELECT f.id, m.id FROM fresh f
    CROSS JOIN LATERAL (
      SELECT d.id FROM disputes d
      WHERE d.txt_no = f.txt_no AND d.atm_id = f.atm_id AND (d.card_no = '' OR f.card_no = '' OR d.card_no = f.card_no)
      ORDER BY d.id LIMIT 1
    ) m
    RETURNING dispute_id
  )
  SELECT array_agg(DISTINCT dispute_id), count(*) INTO joined, n FROM matched;
  linked := linked + n;
  IF only_email IS NULL THEN ANALYZE dispute_records; END IF;
  -- Those still without one.
  IF n > 0 THEN
    SELECT coalesce(array_agg(u.id), '{}') INTO unlinked FROM unnest(unlinked) AS u(id)
    WHERE NOT EXISTS (SELECT 1 FROM dispute_records l WHERE l.record_id = u.id);
  END IF;
  -- New disputes for the rest.
  WITH fresh AS (
    SELECT r.* FROM ej_records r JOIN unnest(unlinked) AS u(id) ON u.id = r.id
  ), made AS (
    INSERT INTO disputes (atm_id, txt_no, card_no, bank_name, transaction_date, complaint_date, first_record_id)
    SELECT DISTINCT ON (CASE WHEN atm_id <> '' AND txt_no <> '' THEN atm_id || chr(31) || txt_no || chr(31) || card_no ELSE 'record ' || id END)
           atm_id, txt_no, card_no, bank_name, transaction_date, complaint_date, id
    FROM fresh
    ORDER BY CASE WHEN atm_id <> '' AND txt_no <> '' THEN atm_id || chr(31) || txt_no || chr(31) || card_no ELSE 'record ' || id END, id
    RETURNING id
  )
  SELECT array_agg(id) INTO created FROM made;
  IF only_email IS NULL THEN ANALYZE disputes; END IF;
  -- Every record left: its own new dispute, or one of the new ones.
  WITH fresh AS (
    SELECT r.id, r.atm_id, r.txt_no, r.card_no FROM ej_records r JOIN unnest(unlinked) AS u(id) ON u.id = r.id
  ), placed AS (
    INSERT INTO dispute_records (record_id, dispute_id)
    SELECT f.id, coalesce(own.id, m.id) FROM fresh f
    LEFT JOIN disputes own ON own.first_record_id = f.id
    LEFT JOIN LATERAL (
      SELECT d.id FROM disputes d
      WHERE f.atm_id <> '' AND f.txt_no <> '' AND d.txt_no = f.txt_no AND d.atm_id = f.atm_id
        AND (d.card_no = '' OR f.card_no = '' OR d.card_no = f.card_no)
      ORDER BY d.id LIMIT 1
    ) m ON own.id IS NULL
    RETURNING 1
  )
  SELECT count(*) INTO n FROM placed;
  linked := linked + n;
  IF joined IS NOT NULL THEN
    UPDATE disputes d SET
      transaction_date = coalesce(d.transaction_date, x.transaction_date),
      complaint_date = coalesce(d.complaint_date, x.complaint_date),
      update_at = now()
    FROM (
      SELECT l.dispute_id, min(r.transaction_date) AS transaction_date, min(r.complaint_date) AS complaint_date
      FROM dispute_records l JOIN ej_records r ON r.id = l.record_id
      WHERE l.dispute_id IN (SELECT unnest(joined)) GROUP BY l.dispute_id
    ) x
    WHERE d.id = x.dispute_id
      AND ((d.transaction_date IS NULL AND x.transaction_date IS NOT NULL) OR (d.complaint_date IS NULL AND x.complaint_date IS NOT NULL));
  END IF;
  -- Linking everything (a migration, a seed) sets every open clock; one email's, its disputes'.
  IF only_email IS NULL THEN
    PERFORM dispute_clocks_refresh(NULL);
  ELSIF created IS NOT NULL OR joined IS NOT NULL THEN
    PERFORM dispute_clocks_refresh(coalesce(created, '{}') || coalesce(joined, '{}'));
  END IF;
  RETURN linked;
END $$;
--> statement-breakpoint
SELECT dispute_records_link(NULL);
--> statement-breakpoint
-- Each dispute record's copy of its dispute's clock and of its own counted fields, as they are now,
-- and their counts.
UPDATE dispute_records l SET
  open = d.status <> 'resolved', due_date = d.due_date, clock_started_on = d.clock_started_on, penalty_per_day = d.penalty_per_day, currency = d.currency,
  settled_penalty = CASE WHEN d.status = 'resolved' THEN coalesce(greatest(0, d.stopped_on - d.due_date), 0) * d.penalty_per_day END,
  transaction_date = r.transaction_date, bank_name = r.bank_name, mail_received_from = r.mail_received_from
FROM disputes d, ej_records r
WHERE d.id = l.dispute_id AND r.id = l.record_id;
--> statement-breakpoint
INSERT INTO dispute_counts (open, due_date, clock_started_on, penalty_per_day, currency, transaction_day, bank_name, mail_received_from, n)
SELECT open, CASE WHEN open THEN due_date END, CASE WHEN open THEN clock_started_on END, CASE WHEN open THEN penalty_per_day ELSE 0 END, CASE WHEN open THEN currency ELSE '' END,
       transaction_date, bank_name, mail_received_from, count(*)
FROM dispute_records GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
--> statement-breakpoint
-- The trigger functions of dispute_records and dispute_counts: created empty here, their bodies
-- are derived.sql's (applied after every migrate, before anything else writes). This migration
-- fills what they keep itself, above.
CREATE FUNCTION dispute_record_fill_apply() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
--> statement-breakpoint
CREATE FUNCTION dispute_record_copies_apply() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
--> statement-breakpoint
CREATE FUNCTION dispute_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
--> statement-breakpoint
CREATE TRIGGER dispute_record_fill BEFORE INSERT OR UPDATE OF dispute_id, record_id ON dispute_records
  FOR EACH ROW EXECUTE FUNCTION dispute_record_fill_apply();
--> statement-breakpoint
CREATE TRIGGER dispute_record_copies AFTER UPDATE ON disputes REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_record_copies_apply();
--> statement-breakpoint
CREATE TRIGGER dispute_counts_insert AFTER INSERT ON dispute_records REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_counts_apply();
--> statement-breakpoint
CREATE TRIGGER dispute_counts_update AFTER UPDATE ON dispute_records REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_counts_apply();
--> statement-breakpoint
CREATE TRIGGER dispute_counts_delete AFTER DELETE ON dispute_records REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_counts_apply();
--> statement-breakpoint
CREATE INDEX "dispute_records_open_idx" ON "dispute_records" USING btree ("record_id") WHERE "dispute_records"."open";
--> statement-breakpoint
CREATE INDEX "dispute_records_resolved_idx" ON "dispute_records" USING btree ("settled_penalty","record_id") WHERE not "dispute_records"."open";
--> statement-breakpoint
CREATE INDEX "dispute_records_open_due_idx" ON "dispute_records" USING btree ("penalty_per_day","due_date","record_id" desc) WHERE "dispute_records"."open";
--> statement-breakpoint
CREATE INDEX "dispute_records_open_due_day_idx" ON "dispute_records" USING btree ("due_date","record_id") WHERE "dispute_records"."open";
--> statement-breakpoint
CREATE INDEX "dispute_records_open_free_idx" ON "dispute_records" USING btree ("record_id") WHERE "dispute_records"."open" and ("dispute_records"."penalty_per_day" = 0 or "dispute_records"."due_date" is null);
--> statement-breakpoint
CREATE INDEX "dispute_records_due_asc_idx" ON "dispute_records" USING btree ("due_date" asc nulls last,"record_id");
--> statement-breakpoint
CREATE INDEX "dispute_records_due_desc_idx" ON "dispute_records" USING btree ("due_date" desc nulls last,"record_id" desc);
--> statement-breakpoint
CREATE INDEX "dispute_counts_bank_trgm_idx" ON "dispute_counts" USING gin ("bank_name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "dispute_counts_from_trgm_idx" ON "dispute_counts" USING gin ("mail_received_from" gin_trgm_ops);
