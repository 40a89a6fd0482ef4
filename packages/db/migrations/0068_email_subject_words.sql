-- The words of the email subjects: a subject filter that lies within one word reads the emails of
-- the few words holding it (email_subjects_words_idx) instead of the trigrams' posting lists,
-- which grow with the mail (a selective subject: 0.5 ms at 100,000 emails, 2.7 ms at 1,000,000).
-- The functions are functions.sql's (it holds the current ones). The trigger is created before the
-- words are counted: its lock waits for the writers under way, and every later write is counted.
-- Built while email_subjects takes no writes (20 s with the ANALYZE after it, for 1,000,000 emails here).
CREATE OR REPLACE FUNCTION subject_words(folded text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_split_to_array(regexp_replace(folded, '[[:alnum:]]{65,}', ' zzlongwordzz ', 'g'), '[^[:alnum:]]+')
$$;
--> statement-breakpoint
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
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "email_subject_words" (
	"word" text PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
CREATE TRIGGER email_subject_words_insert AFTER INSERT ON email_subjects REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION email_subject_words_apply();
--> statement-breakpoint
CREATE TRIGGER email_subject_words_update AFTER UPDATE ON email_subjects REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION email_subject_words_apply();
--> statement-breakpoint
CREATE TRIGGER email_subject_words_delete AFTER DELETE ON email_subjects REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION email_subject_words_apply();
--> statement-breakpoint
INSERT INTO email_subject_words (word, n)
SELECT word, count(*) FROM (SELECT DISTINCT s.id, x.word FROM email_subjects s, unnest(subject_words(s.folded)) x(word) WHERE x.word <> '') e
GROUP BY 1;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "email_subject_words_trgm_idx" ON "email_subject_words" USING gin ("word" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "email_subjects_words_idx" ON "email_subjects" USING gin (subject_words("folded"));
