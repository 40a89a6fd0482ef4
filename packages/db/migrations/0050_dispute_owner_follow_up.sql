ALTER TABLE "disputes" ADD COLUMN "owner_id" integer;--> statement-breakpoint
ALTER TABLE "disputes" ADD COLUMN "follow_up_on" date;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "disputes_owner_idx" ON "disputes" USING btree ("owner_id","id") WHERE "disputes"."owner_id" is not null;--> statement-breakpoint
CREATE INDEX "disputes_follow_up_idx" ON "disputes" USING btree ("follow_up_on","id") WHERE "disputes"."follow_up_on" is not null;