CREATE TABLE "email_counts" (
	"category" text NOT NULL,
	"is_read" boolean NOT NULL,
	"received_day" date NOT NULL,
	"created_day" date NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "email_counts_category_is_read_received_day_created_day_pk" PRIMARY KEY("category","is_read","received_day","created_day")
);
--> statement-breakpoint
DROP INDEX "emails_received_counts_idx";--> statement-breakpoint
CREATE INDEX "email_counts_received_idx" ON "email_counts" USING btree ("received_day");--> statement-breakpoint
CREATE INDEX "email_counts_created_idx" ON "email_counts" USING btree ("created_day");--> statement-breakpoint
-- Keeps email_counts exact for every insert, update and delete on emails, one statement at a time.
-- Rows are applied in key order so that concurrent writers take the counter rows' locks in the same
-- order and cannot deadlock.
CREATE FUNCTION email_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO email_counts AS c (category, is_read, received_day, created_day, n)
    SELECT category, is_read, (received_at AT TIME ZONE 'UTC')::date, (create_at AT TIME ZONE 'UTC')::date, -count(*)
    FROM old_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (category, is_read, received_day, created_day) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO email_counts AS c (category, is_read, received_day, created_day, n)
    SELECT category, is_read, (received_at AT TIME ZONE 'UTC')::date, (create_at AT TIME ZONE 'UTC')::date, count(*)
    FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (category, is_read, received_day, created_day) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER email_counts_insert AFTER INSERT ON emails REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION email_counts_apply();
--> statement-breakpoint
CREATE TRIGGER email_counts_update AFTER UPDATE ON emails REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION email_counts_apply();
--> statement-breakpoint
CREATE TRIGGER email_counts_delete AFTER DELETE ON emails REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION email_counts_apply();
--> statement-breakpoint
INSERT INTO email_counts (category, is_read, received_day, created_day, n)
SELECT category, is_read, (received_at AT TIME ZONE 'UTC')::date, (create_at AT TIME ZONE 'UTC')::date, count(*)
FROM emails GROUP BY 1, 2, 3, 4;
