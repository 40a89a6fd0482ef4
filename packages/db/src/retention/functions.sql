-- The tables stored by month of their create_at (when received, UTC): ej_records and
-- journal_transactions, one partition each month and a default one for a month not made yet. The
-- functions that make and drop their months run as their owner (the migrating role), since the
-- API's own role may not alter a table; so they take only these two tables' names from a caller,
-- find nothing in a caller's temporary schema (pg_temp named last: searched after public), print their bounds in UTC whatever
-- the session's settings, and only the API's role may call them (migration 0062, api-role.sql).
-- The migration runner applies this file after the migrations, every time (CREATE OR REPLACE):
-- it is these functions' one definition (test/functions.test.ts).

-- The month partition of `parent` for the month holding `month`, made when missing, and its name.
-- Rows of that month kept in the default partition move into it (a move within the table: the
-- derived tables' triggers do not see it). The worker makes the next month's each night, and a
-- restore its archive's (docs/operations.md).
CREATE OR REPLACE FUNCTION month_partition(parent text, month date) RETURNS text LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public, pg_temp SET TimeZone = 'UTC' SET DateStyle = 'ISO' AS $$
DECLARE
  first_day date := make_date(extract(year FROM month)::int, extract(month FROM month)::int, 1);
  starts timestamptz := first_day::timestamp AT TIME ZONE 'UTC';
  ends timestamptz := (first_day + interval '1 month') AT TIME ZONE 'UTC';
  name text := parent || '_' || to_char(first_day, 'YYYY_MM');
BEGIN
  IF parent IS NULL OR parent NOT IN ('ej_records', 'journal_transactions') THEN
    RAISE EXCEPTION '% is not stored by month', parent;
  END IF;
  -- Two workers making the same month take turns.
  PERFORM pg_advisory_xact_lock(hashtextextended('month_partition', 0));
  IF to_regclass(name) IS NOT NULL THEN
    RETURN name;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', name, parent);
  EXECUTE format(
    'WITH moved AS (DELETE FROM %I WHERE create_at >= $1 AND create_at < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved',
    parent || '_default', name
  ) USING starts, ends;
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, name, starts, ends);
  RETURN name;
END
$$;

-- Detach and drop the month partition of `parent` for the month holding `month` when it holds no
-- row: retention's last step, after the month's rows were archived and deleted through the parent
-- (which keeps the derived tables exact), in a transaction of its own at READ COMMITTED. The
-- partition is locked before it is looked at, so a row a writer was adding is seen, and kept.
-- Whether it was dropped.
CREATE OR REPLACE FUNCTION month_partition_drop(parent text, month date) RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public, pg_temp SET TimeZone = 'UTC' SET DateStyle = 'ISO' AS $$
DECLARE
  name text := parent || '_' || to_char(month, 'YYYY_MM');
  held boolean;
BEGIN
  IF parent IS NULL OR parent NOT IN ('ej_records', 'journal_transactions') THEN
    RAISE EXCEPTION '% is not stored by month', parent;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_inherits WHERE inhparent = parent::regclass AND inhrelid = to_regclass(name)) THEN
    RETURN false;
  END IF;
  EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', name);
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I)', name) INTO held;
  IF held THEN
    RETURN false;
  END IF;
  EXECUTE format('ALTER TABLE %I DETACH PARTITION %I', parent, name);
  EXECUTE format('DROP TABLE %I', name);
  RETURN true;
END
$$;
