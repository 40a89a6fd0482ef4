-- ej_records stored by the month it was received (create_at, UTC), one partition each, so that a month
-- past its retention is archived and dropped whole (docs/operations.md). PostgreSQL keys a partitioned
-- table with its partition column, so the key is (id, create_at), and dispute_records' foreign key
-- to it becomes a trigger (dispute_record_links). The records are copied once into the new table
-- (a long step on a large database: docs/operations.md); its derived tables stay as they are, the
-- same rows in the same table.
ALTER TABLE dispute_records DROP CONSTRAINT dispute_records_record_id_ej_records_id_fk;
--> statement-breakpoint
ALTER SEQUENCE ej_records_id_seq OWNED BY NONE;
--> statement-breakpoint
ALTER TABLE ej_records RENAME TO ej_records_unpartitioned;
--> statement-breakpoint
CREATE TABLE ej_records (LIKE ej_records_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (create_at);
--> statement-breakpoint
CREATE TABLE ej_records_default PARTITION OF ej_records DEFAULT;
--> statement-breakpoint
-- Created here with the bodies retention/functions.sql holds (that file is their one current definition).
CREATE OR REPLACE FUNCTION month_partition(parent text, month date) RETURNS text LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public, pg_temp SET TimeZone = 'UTC' SET DateStyle = 'ISO' AS $$
DECLARE
  first_day date := make_date(extract(year FROM month)::int, extract(month FROM month)::int, 1);
  starts timestamptz := first_day::timestamp AT TIME ZONE 'UTC';
  ends timestamptz := (first_day + interval '1 month') AT TIME ZONE 'UTC';
  name text := parent || '_' || to_char(first_day, 'YYYY_MM');
BEGIN
  IF parent IS NULL OR parent NOT IN ('ej_records', 'journal_transactions') THEN
    RAISE EXCEPTION '% is not stored by month', parent;
  END IF;
  -- Two workers making the same month take turns.
  PERFORM pg_advisory_xact_lock(hashtextextended('month_partition', 0));
  IF to_regclass(name) IS NOT NULL THEN
    RETURN name;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', name, parent);
  EXECUTE format(
    'WITH moved AS (DELETE FROM %I WHERE create_at >= $1 AND create_at < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved',
    parent || '_default', name
  ) USING starts, ends;
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, name, starts, ends);
  RETURN name;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION month_partition_drop(parent text, month date) RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public, pg_temp SET TimeZone = 'UTC' SET DateStyle = 'ISO' AS $$
DECLARE
  name text := parent || '_' || to_char(month, 'YYYY_MM');
  held boolean;
BEGIN
  IF parent IS NULL OR parent NOT IN ('ej_records', 'journal_transactions') THEN
    RAISE EXCEPTION '% is not stored by month', parent;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_inherits WHERE inhparent = parent::regclass AND inhrelid = to_regclass(name)) THEN
    RETURN false;
  END IF;
  EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', name);
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I)', name) INTO held;
  IF held THEN
    RETURN false;
  END IF;
  EXECUTE format('ALTER TABLE %I DETACH PARTITION %I', parent, name);
  EXECUTE format('DROP TABLE %I', name);
  RETURN true;
END
$$;
--> statement-breakpoint
-- Run as their owner: only the roles given them (deploy/postgres/api-role.sql) may call them.
REVOKE EXECUTE ON FUNCTION month_partition(text, date), month_partition_drop(text, date) FROM PUBLIC;
--> statement-breakpoint
SELECT month_partition('ej_records', m) FROM (
  SELECT DISTINCT (create_at AT TIME ZONE 'UTC')::date AS m FROM ej_records_unpartitioned
  UNION SELECT (now() AT TIME ZONE 'UTC')::date UNION SELECT ((now() AT TIME ZONE 'UTC') + interval '1 month')::date
) months ORDER BY m;
--> statement-breakpoint
INSERT INTO ej_records SELECT * FROM ej_records_unpartitioned;
--> statement-breakpoint
DROP TABLE ej_records_unpartitioned;
--> statement-breakpoint
ALTER SEQUENCE ej_records_id_seq OWNED BY ej_records.id;
--> statement-breakpoint
ALTER TABLE ej_records ADD CONSTRAINT ej_records_id_create_at_pk PRIMARY KEY (id, create_at);
--> statement-breakpoint
ALTER TABLE ej_records ADD CONSTRAINT ej_records_email_id_emails_id_fk FOREIGN KEY (email_id) REFERENCES emails(id) ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE ej_records ADD CONSTRAINT ej_records_data_file_id_data_files_id_fk FOREIGN KEY (data_file_id) REFERENCES data_files(id) ON DELETE SET NULL;
--> statement-breakpoint
CREATE INDEX ej_records_email_idx ON ej_records USING btree (email_id);
--> statement-breakpoint
CREATE INDEX ej_records_atm_trgm_idx ON ej_records USING gin (atm_id gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX ej_records_card_trgm_idx ON ej_records USING gin (card_no gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX ej_records_bank_trgm_idx ON ej_records USING gin (bank_name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX ej_records_subject_trgm_idx ON ej_records USING gin (mail_subject gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX ej_records_from_trgm_idx ON ej_records USING gin (mail_received_from gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX ej_records_kind_id_idx ON ej_records USING btree (kind, id);
--> statement-breakpoint
CREATE INDEX ej_records_data_file_idx ON ej_records USING btree (data_file_id);
--> statement-breakpoint
CREATE INDEX ej_records_card_idx ON ej_records USING btree (card_no, kind, id);
--> statement-breakpoint
CREATE INDEX ej_records_subject_idx ON ej_records USING btree (mail_subject, kind, id);
--> statement-breakpoint
CREATE INDEX ej_records_kind_amt_idx ON ej_records USING btree (kind, transaction_amt NULLS FIRST, id);
--> statement-breakpoint
CREATE INDEX ej_records_kind_dispute_amt_idx ON ej_records USING btree (kind, dispute_amt NULLS FIRST, id);
--> statement-breakpoint
CREATE INDEX ej_records_kind_atm_idx ON ej_records USING btree (kind, atm_id NULLS FIRST, id);
--> statement-breakpoint
CREATE INDEX ej_records_kind_bank_atm_idx ON ej_records USING btree (kind, bank_name, atm_id NULLS FIRST, id);
--> statement-breakpoint
CREATE INDEX ej_records_kind_from_atm_idx ON ej_records USING btree (kind, mail_received_from, atm_id NULLS FIRST, id);
--> statement-breakpoint
CREATE INDEX ej_records_kind_complaint_idx ON ej_records USING btree (kind, complaint_date NULLS FIRST, id);
--> statement-breakpoint
CREATE INDEX ej_records_kind_msp_ref_idx ON ej_records USING btree (kind, msp_ref_no NULLS FIRST, id);
--> statement-breakpoint
CREATE INDEX ej_records_kind_date_idx ON ej_records USING btree (kind, transaction_date NULLS FIRST, id) INCLUDE (complaint_date);
--> statement-breakpoint
-- Created here with the body disputes/functions.sql holds (that file is its one current definition).
CREATE OR REPLACE FUNCTION dispute_record_links_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM dispute_records WHERE record_id IN (SELECT id FROM old_rows);
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
CREATE TRIGGER ej_values_insert AFTER INSERT ON ej_records REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ej_values_apply();
--> statement-breakpoint
CREATE TRIGGER ej_values_update AFTER UPDATE ON ej_records REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ej_values_apply();
--> statement-breakpoint
CREATE TRIGGER ej_values_delete AFTER DELETE ON ej_records REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ej_values_apply();
--> statement-breakpoint
CREATE TRIGGER ej_id_blocks_insert AFTER INSERT ON ej_records REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ej_id_blocks_apply();
--> statement-breakpoint
CREATE TRIGGER ej_id_blocks_update AFTER UPDATE ON ej_records REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ej_id_blocks_apply();
--> statement-breakpoint
CREATE TRIGGER ej_id_blocks_delete AFTER DELETE ON ej_records REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ej_id_blocks_apply();
--> statement-breakpoint
CREATE TRIGGER ej_records_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ej_records
  FOR EACH STATEMENT EXECUTE FUNCTION data_versions_apply();
--> statement-breakpoint
CREATE TRIGGER dispute_record_links AFTER DELETE ON ej_records REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_record_links_apply();
