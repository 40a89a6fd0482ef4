CREATE TABLE "email_sender_counts" (
	"email_from" text NOT NULL,
	"category" text NOT NULL,
	"is_read" boolean NOT NULL,
	"created_day" date NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "email_sender_counts_email_from_category_is_read_created_day_pk" PRIMARY KEY("email_from","category","is_read","created_day")
);
--> statement-breakpoint
CREATE INDEX "email_sender_counts_from_trgm_idx" ON "email_sender_counts" USING gin ("email_from" gin_trgm_ops);--> statement-breakpoint
-- One trigger function keeps both counter tables exact (see 0004); key order again avoids deadlocks.
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
--> statement-breakpoint
INSERT INTO email_sender_counts (email_from, category, is_read, created_day, n)
SELECT email_from, category, is_read, (create_at AT TIME ZONE 'UTC')::date, count(*)
FROM emails GROUP BY 1, 2, 3, 4;
