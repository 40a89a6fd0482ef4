CREATE TABLE "ej_counts" (
	"kind" text NOT NULL,
	"bank_name" text NOT NULL,
	"mail_received_from" text NOT NULL,
	"transaction_day" date NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "ej_counts_kind_bank_name_mail_received_from_transaction_day_pk" PRIMARY KEY("kind","bank_name","mail_received_from","transaction_day")
);
--> statement-breakpoint
CREATE INDEX "ej_counts_bank_trgm_idx" ON "ej_counts" USING gin ("bank_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "ej_counts_from_trgm_idx" ON "ej_counts" USING gin ("mail_received_from" gin_trgm_ops);--> statement-breakpoint
CREATE FUNCTION ej_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
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
--> statement-breakpoint
CREATE TRIGGER ej_counts_insert AFTER INSERT ON ej_records REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ej_counts_apply();
--> statement-breakpoint
CREATE TRIGGER ej_counts_update AFTER UPDATE ON ej_records REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ej_counts_apply();
--> statement-breakpoint
CREATE TRIGGER ej_counts_delete AFTER DELETE ON ej_records REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ej_counts_apply();
--> statement-breakpoint
INSERT INTO ej_counts (kind, bank_name, mail_received_from, transaction_day, n)
SELECT kind, bank_name, mail_received_from, coalesce(transaction_date, '-infinity'::date), count(*)
FROM ej_records GROUP BY 1, 2, 3, 4;
