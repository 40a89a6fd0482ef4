CREATE TABLE "audit_chain_head" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"last_id" bigint DEFAULT 0 NOT NULL,
	"last_hash" text NOT NULL,
	"entries" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "audit_chain_head_one_row" CHECK ("audit_chain_head"."id" = 1)
);
--> statement-breakpoint
-- The id is the chain trigger's to take (from the sequence the column keeps owning), under the chain's lock.
ALTER TABLE "audit_log" ALTER COLUMN "id" SET DEFAULT 0;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "prev_hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "hash" text DEFAULT '' NOT NULL;
--> statement-breakpoint
-- The chain's functions as they were here (audit/functions.sql holds their current definitions).
CREATE OR REPLACE FUNCTION audit_field(value text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN value IS NULL THEN '-' ELSE octet_length(value) || ':' || value END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION audit_entry_hash(prev_hash text, at timestamptz, user_id integer, action text, entity text, entity_id text, ip text, detail text)
RETURNS text LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(
    prev_hash || '|' || audit_field(to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')) || audit_field(user_id::text)
      || audit_field(action) || audit_field(entity) || audit_field(entity_id) || audit_field(ip) || audit_field(detail),
    'UTF8')), 'hex')
$$;--> statement-breakpoint
-- The entries already there, chained in id order, then the head.
DO $$
DECLARE
  entry record;
  prev text := repeat('0', 64);
  n bigint := 0;
  last bigint := 0;
BEGIN
  FOR entry IN SELECT * FROM audit_log ORDER BY id LOOP
    UPDATE audit_log SET prev_hash = prev,
      hash = audit_entry_hash(prev, entry.at, entry.user_id, entry.action, entry.entity, entry.entity_id, entry.ip, entry.detail)
    WHERE id = entry.id RETURNING hash INTO prev;
    n := n + 1;
    last := entry.id;
  END LOOP;
  INSERT INTO audit_chain_head (id, last_id, last_hash, entries) VALUES (1, last, prev, n);
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION audit_log_chain_link() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;--> statement-breakpoint
CREATE TRIGGER audit_log_chain BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_chain_link();--> statement-breakpoint
CREATE TRIGGER audit_log_unchanged BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change();
