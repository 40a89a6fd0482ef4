-- The file lists' text filters (name, subject) count from each kind's distinct values, like the EJ
-- table's ej_values. The trigger function's body is derived.sql's (applied after the migrations).
CREATE TABLE "file_values" (
	"kind" text NOT NULL,
	"field" text NOT NULL,
	"value" text NOT NULL,
	"n" bigint NOT NULL,
	"folded" text GENERATED ALWAYS AS (lower(value)) STORED NOT NULL,
	CONSTRAINT "file_values_kind_field_value_pk" PRIMARY KEY("kind","field","value")
);
--> statement-breakpoint
CREATE INDEX "file_values_folded_idx" ON "file_values" USING btree ("kind","field","folded") INCLUDE ("n", "value");--> statement-breakpoint
CREATE INDEX "file_values_folded_trgm_idx" ON "file_values" USING gin ("folded" gin_trgm_ops);--> statement-breakpoint
CREATE FUNCTION file_values_apply() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
--> statement-breakpoint
CREATE TRIGGER file_values_insert AFTER INSERT ON data_files REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION file_values_apply();
--> statement-breakpoint
CREATE TRIGGER file_values_update AFTER UPDATE ON data_files REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION file_values_apply();
--> statement-breakpoint
CREATE TRIGGER file_values_delete AFTER DELETE ON data_files REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION file_values_apply();
--> statement-breakpoint
INSERT INTO file_values (kind, field, value, n)
SELECT f.kind, v.field, v.value, count(*)
FROM data_files f, LATERAL (VALUES ('name', f.name), ('subject_name', f.subject_name)) AS v(field, value)
GROUP BY 1, 2, 3;
