-- The file lists' and the Journals list's counts are kept per write version too (counts/counts.ts).
CREATE TRIGGER data_files_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON data_files
  FOR EACH STATEMENT EXECUTE FUNCTION data_versions_apply();
--> statement-breakpoint
CREATE TRIGGER journals_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON journals
  FOR EACH STATEMENT EXECUTE FUNCTION data_versions_apply();
