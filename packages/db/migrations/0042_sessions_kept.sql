-- The session a password change keeps: every other session of the user issued before it ends.
ALTER TABLE "users" ADD COLUMN "sessions_kept_id" text;
