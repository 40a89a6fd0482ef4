-- The one current definition of each SQL function of the emails, and of the trigger functions that
-- keep email_counts, email_sender_counts and email_subjects exact. The migration runner applies
-- this file after the migrations, every time (CREATE OR REPLACE, under the migration lock), so this
-- is the one definition: to change a body, change it here (and add a migration only for what the
-- tables themselves need: a column, an index, a trigger, a backfill). Migrations are history: the
-- bodies they once created are replaced by these. No function of this domain is defined anywhere
-- else (test/functions.test.ts checks it). Each trigger function runs once per statement over its
-- transition tables (old_rows, new_rows), the triggers that call them are created by the
-- migrations, named below.
-- docs/data-model.md says what each derived table holds and how to add a filter to one.

-- email_counts and email_sender_counts: emails counted per category, read flag, received and created
-- day (and per sender). The dashboard and every unfiltered list count read these few hundred rows.
-- Keys are taken in a fixed order so that concurrent writers never deadlock.
-- Triggers: email_counts_insert, email_counts_update, email_counts_delete on emails (migration 0004).
CREATE OR REPLACE FUNCTION email_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO email_counts AS c (category, is_read, received_day, created_day, n)
    SELECT category, is_read, (received_at AT TIME ZONE 'UTC')::date, (create_at AT TIME ZONE 'UTC')::date, -count(*)
    FROM old_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (category, is_read, received_day, created_day) DO UPDATE SET n = c.n + excluded.n;
    INSERT INTO email_sender_counts AS c (email_from, category, is_read, created_day, n)
    SELECT email_from, category, is_read, (create_at AT TIME ZONE 'UTC')::date, -count(*)
    FROM old_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (email_from, category, is_read, created_day) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO email_counts AS c (category, is_read, received_day, created_day, n)
    SELECT category, is_read, (received_at AT TIME ZONE 'UTC')::date, (create_at AT TIME ZONE 'UTC')::date, count(*)
    FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (category, is_read, received_day, created_day) DO UPDATE SET n = c.n + excluded.n;
    INSERT INTO email_sender_counts AS c (email_from, category, is_read, created_day, n)
    SELECT email_from, category, is_read, (create_at AT TIME ZONE 'UTC')::date, count(*)
    FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (email_from, category, is_read, created_day) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;

-- email_subjects: one narrow row per email (the folded subject and the list columns) that subject
-- and month filters read instead of the emails' bodies.
-- Triggers: email_subjects_insert, email_subjects_update, email_subjects_delete on emails (migration 0016).
CREATE OR REPLACE FUNCTION email_subjects_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM email_subjects s USING old_rows o WHERE s.id = o.id;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO email_subjects (id, email_from, category, is_read, create_at, received_at, folded)
    SELECT id, email_from, category, is_read, create_at, received_at, lower(subject) FROM new_rows;
  ELSE
    -- Only the rows whose listed columns changed (reading or processing an email touches one or two).
    UPDATE email_subjects s
    SET id = n.id, email_from = n.email_from, category = n.category, is_read = n.is_read,
        create_at = n.create_at, received_at = n.received_at, folded = lower(n.subject)
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE s.id = o.id
      AND (n.email_from, n.category, n.is_read, n.create_at, n.received_at, n.subject)
          IS DISTINCT FROM (o.email_from, o.category, o.is_read, o.create_at, o.received_at, o.subject);
  END IF;
  RETURN NULL;
END
$$;
