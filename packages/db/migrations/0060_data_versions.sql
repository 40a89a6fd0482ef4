CREATE TABLE "data_versions" (
	"table_name" text NOT NULL,
	"shard" integer NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "data_versions_table_name_shard_pk" PRIMARY KEY("table_name","shard")
);--> statement-breakpoint
-- Created here with the body counts/functions.sql holds (that file is its one current definition).
CREATE OR REPLACE FUNCTION data_versions_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO data_versions AS v (table_name, shard, version) VALUES (TG_TABLE_NAME, pg_backend_pid(), 1)
  ON CONFLICT (table_name, shard) DO UPDATE SET version = v.version + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ej_records_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ej_records
  FOR EACH STATEMENT EXECUTE FUNCTION data_versions_apply();
--> statement-breakpoint
CREATE TRIGGER dispute_records_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON dispute_records
  FOR EACH STATEMENT EXECUTE FUNCTION data_versions_apply();
--> statement-breakpoint
CREATE TRIGGER disputes_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON disputes
  FOR EACH STATEMENT EXECUTE FUNCTION data_versions_apply();
--> statement-breakpoint
CREATE TRIGGER dispute_evidence_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON dispute_evidence
  FOR EACH STATEMENT EXECUTE FUNCTION data_versions_apply();
--> statement-breakpoint
CREATE TRIGGER emails_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON emails
  FOR EACH STATEMENT EXECUTE FUNCTION data_versions_apply();
--> statement-breakpoint
CREATE TRIGGER email_subjects_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON email_subjects
  FOR EACH STATEMENT EXECUTE FUNCTION data_versions_apply();
