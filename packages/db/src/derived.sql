-- The current body of every trigger function that keeps a derived table exact, in one place.
-- The migration runner applies this file after the migrations, every time (CREATE OR REPLACE), so
-- this is the one definition: to change a body, change it here (and add a migration only for what
-- the tables themselves need). Each function runs once per statement over its transition tables
-- (old_rows, new_rows), but dispute_record_fill_apply, once per row; the triggers that call them
-- are created by the migrations.
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

-- file_values: each kind's distinct file names and subjects with how many files hold each; a file
-- list's name or subject filter alone is counted by summing the values it matches.
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

-- dispute_records' copies (0030): each dispute record carries its dispute's clock (open or not, due
-- date, start, penalty per day and currency, a resolved one's penalty) and its own transaction
-- date, bank and sender, so that the clock's filters and orders read dispute_records' indexes.
-- A new dispute record takes them from its dispute and its record (row by row: a primary-key
-- lookup each).
CREATE OR REPLACE FUNCTION dispute_record_fill_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT d.status <> 'resolved', d.due_date, d.clock_started_on, d.penalty_per_day, d.currency,
         CASE WHEN d.status = 'resolved' THEN coalesce(greatest(0, d.stopped_on - d.due_date), 0) * d.penalty_per_day END
  INTO NEW.open, NEW.due_date, NEW.clock_started_on, NEW.penalty_per_day, NEW.currency, NEW.settled_penalty
  FROM disputes d WHERE d.id = NEW.dispute_id;
  SELECT r.transaction_date, r.bank_name, r.mail_received_from
  INTO NEW.transaction_date, NEW.bank_name, NEW.mail_received_from
  FROM ej_records r WHERE r.id = NEW.record_id;
  RETURN NEW;
END
$$;

-- A dispute whose clock changed (a status, a rule applied, a date learnt): its records' copies
-- follow in the same statement (a rule change moves them all at once). Compared with the copies,
-- not with the old rows: one transition table, joined through dispute_records' index, and run by
-- EXECUTE so that it is planned for this statement's rows (a plan cached from one-row updates,
-- joining the two transition tables row by row, took minutes for 10,000 disputes on PGlite).
CREATE OR REPLACE FUNCTION dispute_record_copies_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE $update$
    UPDATE dispute_records l SET
      open = c.open, due_date = c.due_date, clock_started_on = c.clock_started_on, penalty_per_day = c.penalty_per_day,
      currency = c.currency, settled_penalty = c.settled_penalty
    FROM (
      SELECT n.id, n.status <> 'resolved' AS open, n.due_date, n.clock_started_on, n.penalty_per_day, n.currency,
             CASE WHEN n.status = 'resolved' THEN coalesce(greatest(0, n.stopped_on - n.due_date), 0) * n.penalty_per_day END AS settled_penalty
      FROM new_rows n
    ) c
    WHERE l.dispute_id = c.id
      AND (l.open, l.due_date, l.clock_started_on, l.penalty_per_day, l.currency, l.settled_penalty)
          IS DISTINCT FROM (c.open, c.due_date, c.clock_started_on, c.penalty_per_day, c.currency, c.settled_penalty)
  $update$;
  RETURN NULL;
END
$$;

-- dispute_counts: dispute records per clock (an open one's due date, start, penalty per day and
-- currency; a resolved one's without) and per transaction day, bank and sender. The clock filters'
-- counts and the dashboard's ageing card sum these rows. Keys emptied stay, at 0.
CREATE OR REPLACE FUNCTION dispute_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO dispute_counts AS c (open, due_date, clock_started_on, penalty_per_day, currency, transaction_day, bank_name, mail_received_from, n)
    SELECT open, CASE WHEN open THEN due_date END, CASE WHEN open THEN clock_started_on END, CASE WHEN open THEN penalty_per_day ELSE 0 END,
           CASE WHEN open THEN currency ELSE '' END, transaction_date, bank_name, mail_received_from, -count(*)
    FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT (open, due_date, clock_started_on, penalty_per_day, currency, transaction_day, bank_name, mail_received_from) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO dispute_counts AS c (open, due_date, clock_started_on, penalty_per_day, currency, transaction_day, bank_name, mail_received_from, n)
    SELECT open, CASE WHEN open THEN due_date END, CASE WHEN open THEN clock_started_on END, CASE WHEN open THEN penalty_per_day ELSE 0 END,
           CASE WHEN open THEN currency ELSE '' END, transaction_date, bank_name, mail_received_from, count(*)
    FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT (open, due_date, clock_started_on, penalty_per_day, currency, transaction_day, bank_name, mail_received_from) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
