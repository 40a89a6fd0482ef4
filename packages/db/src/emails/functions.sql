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
-- email_subject_words: every word of the folded subjects (subject_words), with how many emails
-- hold it. A subject filter that lies within one word finds its few words here by trigram, then
-- reads only their emails in email_subjects_words_idx. A word held by 5,000 emails or more (atm,
-- dispute, a year, a day) is many: it is no longer counted, so writers take no lock on it (they
-- would all queue on it, and two storing several messages each could deadlock), and a filter it
-- holds goes by trigram (emails.ts's fewWordEmails). The rarer words are taken in order; a word no
-- email holds any more stays, with n = 0.
-- subject_words' body must not change without rebuilding email_subjects_words_idx, which is
-- built on it; emails/schema.ts's longWord names the word a long run becomes.
-- Triggers: email_subject_words_insert, email_subject_words_update, email_subject_words_delete on
-- email_subjects (migration 0068).
CREATE OR REPLACE FUNCTION subject_words(folded text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_split_to_array(regexp_replace(folded, '[[:alnum:]]{65,}', ' zzlongwordzz ', 'g'), '[^[:alnum:]]+')
$$;

CREATE OR REPLACE FUNCTION email_subject_words_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO email_subject_words AS w (word, n)
    SELECT word, count(*) FROM (SELECT DISTINCT r.id, x.word FROM new_rows r, unnest(subject_words(r.folded)) x(word) WHERE x.word <> '') e
    WHERE NOT EXISTS (SELECT 1 FROM email_subject_words m WHERE m.word = e.word AND m.n >= 5000)
    GROUP BY 1 ORDER BY 1
    ON CONFLICT (word) DO UPDATE SET n = w.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO email_subject_words AS w (word, n)
    SELECT word, -count(*) FROM (SELECT DISTINCT r.id, x.word FROM old_rows r, unnest(subject_words(r.folded)) x(word) WHERE x.word <> '') e
    WHERE NOT EXISTS (SELECT 1 FROM email_subject_words m WHERE m.word = e.word AND m.n >= 5000)
    GROUP BY 1 ORDER BY 1
    ON CONFLICT (word) DO UPDATE SET n = w.n + excluded.n;
  ELSE
    -- Only the subjects that changed move their words (reading or processing an email keeps it).
    INSERT INTO email_subject_words AS w (word, n)
    SELECT word, sum(d) FROM (
      SELECT DISTINCT o.id, x.word, -1 AS d
      FROM old_rows o LEFT JOIN new_rows r ON r.id = o.id, unnest(subject_words(o.folded)) x(word)
      WHERE x.word <> '' AND r.folded IS DISTINCT FROM o.folded
      UNION ALL
      SELECT DISTINCT r.id, x.word, 1
      FROM new_rows r LEFT JOIN old_rows o ON o.id = r.id, unnest(subject_words(r.folded)) x(word)
      WHERE x.word <> '' AND o.folded IS DISTINCT FROM r.folded
    ) e
    WHERE NOT EXISTS (SELECT 1 FROM email_subject_words m WHERE m.word = e.word AND m.n >= 5000)
    GROUP BY 1 HAVING sum(d) <> 0 ORDER BY 1
    ON CONFLICT (word) DO UPDATE SET n = w.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
