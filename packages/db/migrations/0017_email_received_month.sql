-- Lists filtered by the month of receipt (the dashboard's month): email_subjects carries the
-- received time so that a subject filter and a month combine on the narrow rows.
-- The update rewrites every row: its indexes are built again after it, compact (updated in place,
-- the trigram index doubled and a selective subject search took 10 ms instead of 6).
DROP INDEX "email_subjects_folded_trgm_idx";--> statement-breakpoint
DROP INDEX "email_subjects_create_idx";--> statement-breakpoint
ALTER TABLE "email_subjects" ADD COLUMN "received_at" timestamp with time zone;--> statement-breakpoint
UPDATE email_subjects s SET received_at = e.received_at FROM emails e WHERE e.id = s.id;--> statement-breakpoint
ALTER TABLE "email_subjects" ALTER COLUMN "received_at" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "email_subjects_create_idx" ON "email_subjects" USING btree ("create_at","id");--> statement-breakpoint
-- A sender with a month (no counter holds both) reads the month's entries of this index alone.
CREATE INDEX "email_subjects_received_idx" ON "email_subjects" USING btree ("received_at","id") INCLUDE ("email_from","category","is_read","create_at");--> statement-breakpoint
CREATE INDEX "email_subjects_folded_trgm_idx" ON "email_subjects" USING gin ("folded" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "emails_received_idx" ON "emails" USING btree ("received_at","id");--> statement-breakpoint
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
