-- An admin's password reset makes the user choose a new password at their next login.
ALTER TABLE "users" ADD COLUMN "must_change_password" boolean DEFAULT false NOT NULL;