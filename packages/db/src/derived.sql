-- The current body of every trigger function that keeps a derived table exact, in one place.
-- The migration runner applies this file after the migrations, every time (CREATE OR REPLACE), so
-- this is the one definition: to change a body, change it here (and add a migration only for what
-- the tables themselves need). Each function runs once per statement over its transition tables
-- (old_rows, new_rows); the triggers that call them are created by the migrations.
-- docs/data-model.md says what each derived table holds and how to add a filter to one.

-- email_counts and email_sender_counts: emails counted per category, read flag, received and created
-- day (and per sender). The dashboard and every unfiltered list count read these few hundred rows.
-- Keys are taken in a fixed order so that concurrent writers never deadlock.
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

-- ej_counts: EJ records counted per kind, bank, sender and transaction day (no date: '-infinity').
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

-- email_subjects: one narrow row per email (the folded subject and the list columns) that subject
-- and month filters read instead of the emails' bodies.
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
