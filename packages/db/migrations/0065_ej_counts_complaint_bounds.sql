-- Each ej_counts row's earliest and latest complaint date, and whether a record had none, kept by
-- ej_counts_apply (functions.sql): the complaint order under a range of transaction days is bounded
-- from these rows instead of the range's records. Rows counted before stay unknown (null: the
-- records are read, as before); a DBA may fill them by hand (docs/operations.md).
ALTER TABLE "ej_counts" ADD COLUMN "complaint_first" date;
--> statement-breakpoint
ALTER TABLE "ej_counts" ADD COLUMN "complaint_last" date;
--> statement-breakpoint
ALTER TABLE "ej_counts" ADD COLUMN "complaint_missing" boolean;
--> statement-breakpoint
-- The body that keeps them (functions.sql holds the current one).
CREATE OR REPLACE FUNCTION ej_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO ej_counts AS c (kind, bank_name, mail_received_from, transaction_day, n)
    SELECT kind, bank_name, mail_received_from, coalesce(transaction_date, '-infinity'::date), -count(*)
    FROM old_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (kind, bank_name, mail_received_from, transaction_day) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO ej_counts AS c (kind, bank_name, mail_received_from, transaction_day, n, complaint_first, complaint_last, complaint_missing)
    SELECT kind, bank_name, mail_received_from, coalesce(transaction_date, '-infinity'::date), count(*),
           min(complaint_date), max(complaint_date), bool_or(complaint_date IS NULL)
    FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (kind, bank_name, mail_received_from, transaction_day) DO UPDATE SET n = c.n + excluded.n,
      complaint_first = CASE WHEN c.n <= 0 OR c.complaint_missing IS NOT NULL THEN least(CASE WHEN c.n > 0 THEN c.complaint_first END, excluded.complaint_first) END,
      complaint_last = CASE WHEN c.n <= 0 OR c.complaint_missing IS NOT NULL THEN greatest(CASE WHEN c.n > 0 THEN c.complaint_last END, excluded.complaint_last) END,
      complaint_missing = CASE WHEN c.n <= 0 THEN excluded.complaint_missing WHEN c.complaint_missing IS NOT NULL THEN c.complaint_missing OR excluded.complaint_missing END;
  END IF;
  RETURN NULL;
END
$$;
