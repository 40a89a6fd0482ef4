ALTER TABLE "ej_records" ADD COLUMN "data_file_id" bigint;--> statement-breakpoint
ALTER TABLE "ej_records" ADD CONSTRAINT "ej_records_data_file_id_data_files_id_fk" FOREIGN KEY ("data_file_id") REFERENCES "public"."data_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ej_records_data_file_idx" ON "ej_records" USING btree ("data_file_id");