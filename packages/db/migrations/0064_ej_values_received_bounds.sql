-- Each EJ filter value's earliest and latest record (create_at), kept by ej_values_apply
-- (functions.sql): a sparse filter's records are then looked up in the months that can hold them,
-- not in every month's partition. Values counted before stay null (every month read); a DBA may
-- fill them by hand (docs/operations.md).
ALTER TABLE "ej_values" ADD COLUMN "first_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ej_values" ADD COLUMN "last_at" timestamp with time zone;
--> statement-breakpoint
-- The body that keeps them (functions.sql holds the current one).
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
    INSERT INTO ej_values AS v (kind, field, value, n, first_at, last_at)
    SELECT r.kind, f.field, f.value, count(*), min(r.create_at), max(r.create_at)
    FROM new_rows r, LATERAL (VALUES ('atm_id', coalesce(r.atm_id, '')), ('bank_name', coalesce(r.bank_name, '')), ('card_no', coalesce(r.card_no, '')),
                                     ('mail_subject', coalesce(r.mail_subject, '')), ('mail_received_from', coalesce(r.mail_received_from, ''))) AS f(field, value)
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (kind, field, value) DO UPDATE SET n = v.n + excluded.n,
      first_at = CASE WHEN v.n <= 0 THEN excluded.first_at WHEN v.first_at IS NOT NULL THEN least(v.first_at, excluded.first_at) END,
      last_at = CASE WHEN v.n <= 0 THEN excluded.last_at WHEN v.last_at IS NOT NULL THEN greatest(v.last_at, excluded.last_at) END;
  END IF;
  RETURN NULL;
END
$$;
