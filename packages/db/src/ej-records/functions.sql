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

-- ej_counts: EJ records counted per kind, bank, sender and transaction day (no date: '-infinity').
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
    INSERT INTO ej_counts AS c (kind, bank_name, mail_received_from, transaction_day, n)
    SELECT kind, bank_name, mail_received_from, coalesce(transaction_date, '-infinity'::date), count(*)
    FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (kind, bank_name, mail_received_from, transaction_day) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;

-- ej_values: each distinct filter value (ATM ID, card, bank, mail subject, sender) with how many
-- records of each kind hold it; a substring filter matches these instead of scanning the records.
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
    INSERT INTO ej_values AS v (kind, field, value, n)
    SELECT r.kind, f.field, f.value, count(*)
    FROM new_rows r, LATERAL (VALUES ('atm_id', coalesce(r.atm_id, '')), ('bank_name', coalesce(r.bank_name, '')), ('card_no', coalesce(r.card_no, '')),
                                     ('mail_subject', coalesce(r.mail_subject, '')), ('mail_received_from', coalesce(r.mail_received_from, ''))) AS f(field, value)
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (kind, field, value) DO UPDATE SET n = v.n + excluded.n;
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

-- The month partition of ej_records for the month holding `month` (records received then, UTC),
-- made when missing, and its name. A record received in a month without one is kept in
-- ej_records_default; making the month's partition moves those in (a move within the table: the
-- derived tables' triggers do not see it). The worker makes the next month's each night
-- (retention/), and a restore its archive's (docs/operations.md). It runs as its owner (the
-- migrating role), as does the drop below: the API's own role may not alter the table.
CREATE OR REPLACE FUNCTION ej_records_partition(month date) RETURNS text LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  first_day date := make_date(extract(year FROM month)::int, extract(month FROM month)::int, 1);
  starts timestamptz := first_day::timestamp AT TIME ZONE 'UTC';
  ends timestamptz := (first_day + interval '1 month') AT TIME ZONE 'UTC';
  name text := 'ej_records_' || to_char(first_day, 'YYYY_MM');
BEGIN
  IF to_regclass(name) IS NOT NULL THEN
    RETURN name;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE ej_records INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', name);
  EXECUTE format(
    'WITH moved AS (DELETE FROM ej_records_default WHERE create_at >= $1 AND create_at < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved',
    name
  ) USING starts, ends;
  EXECUTE format('ALTER TABLE ej_records ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', name, starts, ends);
  RETURN name;
END
$$;

-- Detach and drop the month partition of ej_records for the month holding `month`, once it holds no
-- record: retention's last step, after the month's rows were archived and deleted through
-- ej_records (which keeps the derived tables exact). Whether there was one to drop.
CREATE OR REPLACE FUNCTION ej_records_partition_drop(month date) RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  name text := 'ej_records_' || to_char(month, 'YYYY_MM');
  held boolean;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_inherits WHERE inhparent = 'ej_records'::regclass AND inhrelid = to_regclass(name)) THEN
    RETURN false;
  END IF;
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I)', name) INTO held;
  IF held THEN
    RAISE EXCEPTION '% still holds records: delete them through ej_records first', name;
  END IF;
  EXECUTE format('ALTER TABLE ej_records DETACH PARTITION %I', name);
  EXECUTE format('DROP TABLE %I', name);
  RETURN true;
END
$$;
