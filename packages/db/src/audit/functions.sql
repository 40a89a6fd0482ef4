-- The one current definition of the audit log's SQL functions: the hash chain. The migration runner
-- applies this file after the migrations, every time (see disputes/functions.sql); migration 0051
-- created the triggers named below.

-- One field of an entry as it is hashed: its length in bytes, a colon and its text, or '-' for
-- none. The lengths make the fields' edges unambiguous (no text can pass for two fields).
CREATE OR REPLACE FUNCTION audit_field(value text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN value IS NULL THEN '-' ELSE octet_length(value) || ':' || value END
$$;

--> statement-breakpoint
-- An entry's hash: SHA-256 (hex) of the previous entry's hash, '|', then its fields in this order:
-- when (UTC, to the microsecond, as 2026-11-28T09:15:02.123456Z), user id, action, entity, entity
-- id, ip, detail. docs/disputes.md shows an auditor how to recompute it without EJ Desk.
CREATE OR REPLACE FUNCTION audit_entry_hash(prev_hash text, at timestamptz, user_id integer, action text, entity text, entity_id text, ip text, detail text)
RETURNS text LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(
    prev_hash || '|' || audit_field(to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')) || audit_field(user_id::text)
      || audit_field(action) || audit_field(entity) || audit_field(entity_id) || audit_field(ip) || audit_field(detail),
    'UTF8')), 'hex')
$$;

--> statement-breakpoint
-- A new entry is chained onto the head: the head's row is locked to the end of the transaction, so
-- entries are chained one writer at a time, and the id is taken under that lock, so that id order
-- is chain order (an id taken before it, by the column's default, could commit after a later one).
-- Whatever a caller gave as hashes or id is replaced. SECURITY DEFINER: the API's role may only
-- insert entries (docs/operations.md), not write the head.
-- Trigger: audit_log_chain, BEFORE INSERT ON audit_log (migration 0051).
CREATE OR REPLACE FUNCTION audit_log_chain_link() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
  head audit_chain_head%ROWTYPE;
BEGIN
  SELECT * INTO head FROM audit_chain_head WHERE id = 1 FOR UPDATE;
  NEW.id := nextval(pg_get_serial_sequence('audit_log', 'id'));
  NEW.prev_hash := head.last_hash;
  NEW.hash := audit_entry_hash(NEW.prev_hash, NEW.at, NEW.user_id, NEW.action, NEW.entity, NEW.entity_id, NEW.ip, NEW.detail);
  UPDATE audit_chain_head SET last_id = NEW.id, last_hash = NEW.hash, entries = entries + 1 WHERE id = 1;
  RETURN NEW;
END $$;

--> statement-breakpoint
-- Entries are never changed or removed, by any role that leaves triggers on (the API's role is
-- also refused by its grants). A user is switched off, never deleted, so user_id's ON DELETE SET
-- NULL never fires.
-- Trigger: audit_log_unchanged, BEFORE UPDATE OR DELETE ON audit_log (migration 0051).
CREATE OR REPLACE FUNCTION audit_log_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit log entries are never changed or removed' USING ERRCODE = 'insufficient_privilege';
END $$;
