-- The one current definition of the counts' SQL function (see disputes/functions.sql for how these
-- files are applied): the write version of the counted tables.

-- A statement that wrote a counted table (rows or none) adds one to its connection's own row of the
-- table's version (one row per server process: no two transactions ever wait on one, nor deadlock):
-- the sum changes at its commit, with the rows it wrote.
-- Triggers: <table>_data_version on ej_records, dispute_records, disputes, dispute_evidence, emails
-- and email_subjects (migration 0060), data_files and journals (0061).
CREATE OR REPLACE FUNCTION data_versions_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO data_versions AS v (table_name, shard, version) VALUES (TG_TABLE_NAME, pg_backend_pid(), 1)
  ON CONFLICT (table_name, shard) DO UPDATE SET version = v.version + 1;
  RETURN NULL;
END
$$;
