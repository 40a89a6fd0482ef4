-- The role the API and the ingester use on PostgreSQL: every right they need on the tables the
-- migrations made, and not the right to change or remove an audit entry (nor the chain's head).
-- Run by the database's owner (the role that runs `pnpm --filter @ejdesk/api migrate`), after each
-- migration, in the EJ Desk database: psql "$OWNER_URL" -f deploy/postgres/api-role.sql
-- Then give the role a password (ALTER ROLE ejdesk_api PASSWORD '...') and use it in DATABASE_URL
-- of the API and the ingester. A role that owns no table does not migrate: it starts only on a
-- database its owner has migrated to the build (docs/operations.md, "The database's roles").
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'ejdesk_api') THEN
    CREATE ROLE ejdesk_api LOGIN;
  END IF;
END $$;
GRANT USAGE ON SCHEMA public, drizzle TO ejdesk_api;
GRANT SELECT ON ALL TABLES IN SCHEMA drizzle TO ejdesk_api;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ejdesk_api;
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ejdesk_api;
-- The audit log is written only by adding entries (its trigger chains them as the owner).
REVOKE UPDATE, DELETE, TRUNCATE ON audit_log, audit_chain_head FROM ejdesk_api;
REVOKE INSERT ON audit_chain_head FROM ejdesk_api;
-- The month partitions are made and dropped by functions that run as the owner (retention).
GRANT EXECUTE ON FUNCTION month_partition(text, date), month_partition_drop(text, date) TO ejdesk_api;
