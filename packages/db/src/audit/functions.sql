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
-- A new entry is written unchained, whatever a caller gave as its place or hashes: the chainer
-- gives it those once it has committed. No lock is taken, so no writer waits for another.
-- Trigger: audit_log_chain, BEFORE INSERT ON audit_log (migration 0051).
CREATE OR REPLACE FUNCTION audit_log_chain_link() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.chain_seq := NULL;
  NEW.prev_hash := '';
  NEW.hash := '';
  RETURN NEW;
END $$;

--> statement-breakpoint
-- Chains the committed entries not chained yet (up to max_rows, all when null), in id order, onto
-- the head: each gets the next place, the head's hash as prev_hash, and its hash. One chainer at a
-- time (an advisory lock: `wait` waits for it, else it leaves the work to the one running). Run by
-- the worker every round, and before a verification or an export (audit/chain.ts). SECURITY
-- DEFINER: the API's role may not update entries (docs/operations.md).
CREATE OR REPLACE FUNCTION audit_chain_extend(max_rows integer, wait boolean) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
  head audit_chain_head%ROWTYPE;
  entry record;
  prev text;
  n integer := 0;
BEGIN
  IF wait THEN
    PERFORM pg_advisory_xact_lock(727002);
  ELSIF NOT pg_try_advisory_xact_lock(727002) THEN
    RETURN 0;
  END IF;
  SELECT * INTO head FROM audit_chain_head WHERE id = 1 FOR UPDATE;
  FOR entry IN SELECT * FROM audit_log WHERE chain_seq IS NULL ORDER BY id LIMIT max_rows LOOP
    prev := head.last_hash;
    head.entries := head.entries + 1;
    head.last_hash := audit_entry_hash(prev, entry.at, entry.user_id, entry.action, entry.entity, entry.entity_id, entry.ip, entry.detail);
    head.last_id := entry.id;
    UPDATE audit_log SET chain_seq = head.entries, prev_hash = prev, hash = head.last_hash WHERE id = entry.id;
    n := n + 1;
  END LOOP;
  IF n > 0 THEN
    UPDATE audit_chain_head SET last_id = head.last_id, last_hash = head.last_hash, entries = head.entries WHERE id = 1;
  END IF;
  RETURN n;
END $$;

--> statement-breakpoint
-- Entries are never changed or removed, by any role that leaves triggers on (the API's role is
-- also refused by its grants), but for the chainer's one write: an unchained entry given its place
-- and hashes, its content as it was. A user is switched off, never deleted, so user_id's ON DELETE
-- SET NULL never fires.
-- Trigger: audit_log_unchanged, BEFORE UPDATE OR DELETE ON audit_log (migration 0051).
CREATE OR REPLACE FUNCTION audit_log_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.chain_seq IS NULL AND NEW.chain_seq IS NOT NULL
     AND (NEW.id, NEW.user_id, NEW.action, NEW.entity, NEW.entity_id, NEW.ip, NEW.detail, NEW.at)
         IS NOT DISTINCT FROM (OLD.id, OLD.user_id, OLD.action, OLD.entity, OLD.entity_id, OLD.ip, OLD.detail, OLD.at) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit log entries are never changed or removed' USING ERRCODE = 'insufficient_privilege';
END $$;
