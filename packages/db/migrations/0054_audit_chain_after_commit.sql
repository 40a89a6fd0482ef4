-- Entries are numbered as written again; their place in the chain is given after they commit.
ALTER TABLE "audit_log" ALTER COLUMN "id" SET DEFAULT nextval('audit_log_id_seq'::regclass);--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "chain_seq" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_chain_seq_key" ON "audit_log" USING btree ("chain_seq") WHERE "audit_log"."chain_seq" is not null;--> statement-breakpoint
CREATE INDEX "audit_log_unchained_idx" ON "audit_log" USING btree ("id") WHERE "audit_log"."chain_seq" is null;
--> statement-breakpoint
-- The entries 0051 chained (all, in id order) keep their places.
ALTER TABLE "audit_log" DISABLE TRIGGER audit_log_unchanged;--> statement-breakpoint
UPDATE "audit_log" SET chain_seq = s.n FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM "audit_log" WHERE hash <> '') s WHERE "audit_log".id = s.id;--> statement-breakpoint
ALTER TABLE "audit_log" ENABLE TRIGGER audit_log_unchanged;--> statement-breakpoint
UPDATE audit_chain_head SET entries = (SELECT count(*) FROM "audit_log" WHERE chain_seq IS NOT NULL);--> statement-breakpoint
-- The chainer as it was here (audit/functions.sql holds the current definition).
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
