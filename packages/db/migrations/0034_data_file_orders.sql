-- The file lists ordered by Last Update and by name as well, each from its own index.
CREATE INDEX "data_files_kind_update_idx" ON "data_files" USING btree ("kind","update_at","id");--> statement-breakpoint
CREATE INDEX "data_files_kind_name_idx" ON "data_files" USING btree ("kind","name","id");