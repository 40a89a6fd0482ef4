-- The one current definition of the journals' SQL functions: the migration runner applies this
-- file after the migrations, every time (CREATE OR REPLACE), and no function of this domain is
-- defined anywhere else (test/functions.test.ts).

-- A journal transaction deleted (its journal archived, or deleted with it) leaves no reference to
-- it: a dispute's evidence keeps its verdict without the transaction, and the continuation of a
-- cut one is no longer joined to it. What the foreign keys' SET NULL did before
-- journal_transactions was partitioned by month (0063), which no foreign key reaches by id alone.
-- Trigger: journal_transaction_links, AFTER DELETE ON journal_transactions (migration 0063).
CREATE OR REPLACE FUNCTION journal_transaction_links_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE dispute_evidence SET transaction_id = NULL WHERE transaction_id IN (SELECT id FROM old_rows);
  UPDATE journal_transactions SET joined_to = NULL WHERE joined_to IN (SELECT id FROM old_rows);
  RETURN NULL;
END
$$;
