-- journal_transactions stored by the month its journal was received (create_at, UTC, new: the
-- journal's own), like ej_records (0062): a month past its retention is archived and dropped whole.
-- The key becomes (id, create_at), and the two foreign keys that reached it by id become a
-- trigger (journal_transaction_links). The rows are copied once into the new table (a long step
-- on a large database: docs/operations.md).
ALTER TABLE dispute_evidence DROP CONSTRAINT dispute_evidence_transaction_id_journal_transactions_id_fk;
--> statement-breakpoint
ALTER TABLE journal_transactions DROP CONSTRAINT journal_transactions_joined_to_journal_transactions_id_fk;
--> statement-breakpoint
ALTER TABLE journal_transactions ADD COLUMN create_at timestamp with time zone;
--> statement-breakpoint
UPDATE journal_transactions t SET create_at = j.create_at FROM journals j WHERE j.id = t.journal_id;
--> statement-breakpoint
ALTER TABLE journal_transactions ALTER COLUMN create_at SET DEFAULT now(), ALTER COLUMN create_at SET NOT NULL;
--> statement-breakpoint
ALTER SEQUENCE journal_transactions_id_seq OWNED BY NONE;
--> statement-breakpoint
ALTER TABLE journal_transactions RENAME TO journal_transactions_unpartitioned;
--> statement-breakpoint
CREATE TABLE journal_transactions (LIKE journal_transactions_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (create_at);
--> statement-breakpoint
CREATE TABLE journal_transactions_default PARTITION OF journal_transactions DEFAULT;
--> statement-breakpoint
SELECT month_partition('journal_transactions', m) FROM (
  SELECT DISTINCT (create_at AT TIME ZONE 'UTC')::date AS m FROM journal_transactions_unpartitioned
  UNION SELECT (now() AT TIME ZONE 'UTC')::date UNION SELECT ((now() AT TIME ZONE 'UTC') + interval '1 month')::date
) months ORDER BY m;
--> statement-breakpoint
INSERT INTO journal_transactions SELECT * FROM journal_transactions_unpartitioned;
--> statement-breakpoint
DROP TABLE journal_transactions_unpartitioned;
--> statement-breakpoint
ALTER SEQUENCE journal_transactions_id_seq OWNED BY journal_transactions.id;
--> statement-breakpoint
ALTER TABLE journal_transactions ADD CONSTRAINT journal_transactions_id_create_at_pk PRIMARY KEY (id, create_at);
--> statement-breakpoint
ALTER TABLE journal_transactions ADD CONSTRAINT journal_transactions_journal_id_journals_id_fk FOREIGN KEY (journal_id) REFERENCES journals(id) ON DELETE CASCADE;
--> statement-breakpoint
ALTER TABLE journal_transactions ADD CONSTRAINT journal_transactions_continuation_journal_id_journals_id_fk FOREIGN KEY (continuation_journal_id) REFERENCES journals(id) ON DELETE SET NULL;
--> statement-breakpoint
CREATE INDEX journal_transactions_atm_at_idx ON journal_transactions USING btree (atm_id, at);
--> statement-breakpoint
CREATE INDEX journal_transactions_rrn_idx ON journal_transactions USING btree (rrn);
--> statement-breakpoint
CREATE INDEX journal_transactions_stan_idx ON journal_transactions USING btree (stan);
--> statement-breakpoint
CREATE INDEX journal_transactions_atm_serial_idx ON journal_transactions USING btree (atm_id, serial);
--> statement-breakpoint
CREATE INDEX journal_transactions_card_idx ON journal_transactions USING btree (atm_id, day, card_last4);
--> statement-breakpoint
CREATE UNIQUE INDEX journal_transactions_journal_seq_key ON journal_transactions USING btree (journal_id, seq, create_at);
--> statement-breakpoint
CREATE INDEX journal_transactions_joined_idx ON journal_transactions USING btree (joined_to) WHERE (joined_to IS NOT NULL);
--> statement-breakpoint
CREATE INDEX journal_transactions_continuation_idx ON journal_transactions USING btree (continuation_journal_id) WHERE (continuation_journal_id IS NOT NULL);
--> statement-breakpoint
-- Created here with the body journals/functions.sql holds (that file is its one current definition).
CREATE OR REPLACE FUNCTION journal_transaction_links_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE dispute_evidence SET transaction_id = NULL WHERE transaction_id IN (SELECT id FROM old_rows);
  UPDATE journal_transactions SET joined_to = NULL WHERE joined_to IN (SELECT id FROM old_rows);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER journal_transaction_links AFTER DELETE ON journal_transactions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION journal_transaction_links_apply();
