-- The one current definition of each SQL function of the data files, and of the trigger functions
-- that keep file_values exact. The migration runner applies this file after the migrations, every
-- time (CREATE OR REPLACE, under the migration lock), so this is the one definition: to change a
-- body, change it here (and add a migration only for what the tables themselves need: a column, an
-- index, a trigger, a backfill). Migrations are history: the bodies they once created are replaced
-- by these. No function of this domain is defined anywhere else (test/functions.test.ts checks it).
-- Each trigger function runs once per statement over its transition tables (old_rows, new_rows),
-- the triggers that call them are created by the migrations, named below.
-- docs/data-model.md says what each derived table holds and how to add a filter to one.

-- file_values: each kind's distinct file names and subjects with how many files hold each; a file
-- list's name or subject filter alone is counted by summing the values it matches.
-- Triggers: file_values_insert, file_values_update, file_values_delete on data_files (migration 0036).
CREATE OR REPLACE FUNCTION file_values_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO file_values AS v (kind, field, value, n)
    SELECT r.kind, f.field, f.value, -count(*)
    FROM old_rows r, LATERAL (VALUES ('name', r.name), ('subject_name', r.subject_name)) AS f(field, value)
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (kind, field, value) DO UPDATE SET n = v.n + excluded.n;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO file_values AS v (kind, field, value, n)
    SELECT r.kind, f.field, f.value, count(*)
    FROM new_rows r, LATERAL (VALUES ('name', r.name), ('subject_name', r.subject_name)) AS f(field, value)
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (kind, field, value) DO UPDATE SET n = v.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
