DROP INDEX "ej_values_value_trgm_idx";--> statement-breakpoint
ALTER TABLE "ej_values" ADD COLUMN "folded" text GENERATED ALWAYS AS (lower(value)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "ej_values_folded_idx" ON "ej_values" USING btree ("kind","field","folded") INCLUDE ("n", "value");--> statement-breakpoint
CREATE INDEX "ej_values_folded_trgm_idx" ON "ej_values" USING gin ("folded" gin_trgm_ops);--> statement-breakpoint
-- Card numbers join the values (nearly one per record, yet a narrow row each: the least a broad
-- card filter can read).
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
--> statement-breakpoint
INSERT INTO ej_values (kind, field, value, n)
SELECT kind, 'card_no', coalesce(card_no, ''), count(*) FROM ej_records GROUP BY 1, 3;
