-- Roles: an operator uses every screen but the admin lists; an admin those too. Accounts
-- made before roles could use everything, so they become admins; new accounts are operators unless
-- made as admins (user:create --role admin).
ALTER TABLE "users" ADD COLUMN "role" text DEFAULT 'operator' NOT NULL;--> statement-breakpoint
UPDATE "users" SET "role" = 'admin';--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("users"."role" in ('operator', 'admin'));
