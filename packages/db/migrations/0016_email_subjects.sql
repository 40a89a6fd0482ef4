CREATE TABLE "email_subjects" (
	"id" bigint PRIMARY KEY NOT NULL,
	"email_from" text NOT NULL,
	"category" text NOT NULL,
	"is_read" boolean NOT NULL,
	"create_at" timestamp with time zone NOT NULL,
	"folded" text NOT NULL
);
--> statement-breakpoint
INSERT INTO email_subjects (id, email_from, category, is_read, create_at, folded)
SELECT id, email_from, category, is_read, create_at, lower(subject) FROM emails;
--> statement-breakpoint
-- Subject filters read email_subjects now; its own trigram index replaces this one.
DROP INDEX "emails_subject_trgm_idx";--> statement-breakpoint
CREATE INDEX "email_subjects_create_idx" ON "email_subjects" USING btree ("create_at","id");--> statement-breakpoint
CREATE INDEX "email_subjects_folded_trgm_idx" ON "email_subjects" USING gin ("folded" gin_trgm_ops);--> statement-breakpoint
-- One row per email, exact after every statement on emails (as the counters of 0004 are).
CREATE FUNCTION email_subjects_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM email_subjects s USING old_rows o WHERE s.id = o.id;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO email_subjects (id, email_from, category, is_read, create_at, folded)
    SELECT id, email_from, category, is_read, create_at, lower(subject) FROM new_rows;
  ELSE
    -- Only the rows whose listed columns changed (reading or processing an email touches one or two).
    UPDATE email_subjects s
    SET id = n.id, email_from = n.email_from, category = n.category, is_read = n.is_read,
        create_at = n.create_at, folded = lower(n.subject)
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE s.id = o.id
      AND (n.email_from, n.category, n.is_read, n.create_at, n.subject)
          IS DISTINCT FROM (o.email_from, o.category, o.is_read, o.create_at, o.subject);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER email_subjects_insert AFTER INSERT ON emails REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION email_subjects_apply();
--> statement-breakpoint
CREATE TRIGGER email_subjects_update AFTER UPDATE ON emails REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION email_subjects_apply();
--> statement-breakpoint
CREATE TRIGGER email_subjects_delete AFTER DELETE ON emails REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION email_subjects_apply();
