-- The one current definition of each SQL function of the EJ records, and of the trigger functions
-- that keep ej_counts, ej_values and ej_id_blocks exact. The migration runner applies this file
-- after the migrations, every time (CREATE OR REPLACE, under the migration lock), so this is the
-- one definition: to change a body, change it here (and add a migration only for what the tables
-- themselves need: a column, an index, a trigger, a backfill). Migrations are history: the bodies
-- they once created are replaced by these. No function of this domain is defined anywhere else
-- (test/functions.test.ts checks it). Each trigger function runs once per statement over its
-- transition tables (old_rows, new_rows), the triggers that call them are created by the
-- migrations, named below.
-- docs/data-model.md says what each derived table holds and how to add a filter to one.

-- ej_counts: EJ records counted per kind, bank, sender and transaction day (no date: '-infinity'),
-- with the earliest and latest complaint date of the row's records and whether one had none: an
-- insert widens them, a delete leaves them (still bounds), a row counting no record takes the new
-- records' own; complaint_missing null (counted before 0065) stays null while the row counts one.
-- Triggers: ej_counts_insert, ej_counts_update, ej_counts_delete on ej_records (migration 0007).
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

-- ej_values: each distinct filter value (ATM ID, card, bank, mail subject, sender) with how many
-- records of each kind hold it; a substring filter matches these instead of scanning the records.
-- first_at and last_at bound the create_at of the records holding it (the months to look in): an
-- insert widens them, a delete leaves them (still bounds), a value held by none takes the new
-- records' own; null stays null while records counted before 0064 may hold it.
-- Triggers: ej_values_insert, ej_values_update, ej_values_delete on ej_records (migration 0010).
CREATE OR REPLACE FUNCTION ej_values_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO ej_values AS v (kind, field, value, n)
    SELECT r.kind, f.field, f.value, -count(*)
    FROM old_rows r, LATERAL (VALUES ('atm_id', coalesce(r.atm_id, '')), ('bank_name', coalesce(r.bank_name, '')), ('card_no', coalesce(r.card_no, '')),
                                     ('mail_subject', coalesce(r.mail_subject, '')), ('mail_received_from', coalesce(r.mail_received_from, ''))) AS f(field, value)
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (kind, field, value) DO UPDATE SET n = v.n + excluded.n;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO ej_values AS v (kind, field, value, n, first_at, last_at)
    SELECT r.kind, f.field, f.value, count(*), min(r.create_at), max(r.create_at)
    FROM new_rows r, LATERAL (VALUES ('atm_id', coalesce(r.atm_id, '')), ('bank_name', coalesce(r.bank_name, '')), ('card_no', coalesce(r.card_no, '')),
                                     ('mail_subject', coalesce(r.mail_subject, '')), ('mail_received_from', coalesce(r.mail_received_from, ''))) AS f(field, value)
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (kind, field, value) DO UPDATE SET n = v.n + excluded.n,
      first_at = CASE WHEN v.n <= 0 THEN excluded.first_at WHEN v.first_at IS NOT NULL THEN least(v.first_at, excluded.first_at) END,
      last_at = CASE WHEN v.n <= 0 THEN excluded.last_at WHEN v.last_at IS NOT NULL THEN greatest(v.last_at, excluded.last_at) END;
  END IF;
  RETURN NULL;
END
$$;

-- ej_id_blocks: records per kind in blocks of 1,024 ids (id >> 10), so a deep page seeks its block.
-- Triggers: ej_id_blocks_insert, ej_id_blocks_update, ej_id_blocks_delete on ej_records (migration 0012).
CREATE OR REPLACE FUNCTION ej_id_blocks_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO ej_id_blocks AS b (kind, block, n)
    SELECT r.kind, r.id >> 10, -count(*) FROM old_rows r GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (kind, block) DO UPDATE SET n = b.n + excluded.n;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO ej_id_blocks AS b (kind, block, n)
    SELECT r.kind, r.id >> 10, count(*) FROM new_rows r GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (kind, block) DO UPDATE SET n = b.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
