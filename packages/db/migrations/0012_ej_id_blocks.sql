CREATE TABLE "ej_id_blocks" (
	"kind" text NOT NULL,
	"block" bigint NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "ej_id_blocks_kind_block_pk" PRIMARY KEY("kind","block")
);
--> statement-breakpoint
-- Blocks of 1,024 ids (id >> 10) per kind, counted like ej_values (0010).
CREATE FUNCTION ej_id_blocks_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO ej_id_blocks AS b (kind, block, n)
    SELECT r.kind, r.id >> 10, -count(*) FROM old_rows r GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (kind, block) DO UPDATE SET n = b.n + excluded.n;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO ej_id_blocks AS b (kind, block, n)
    SELECT r.kind, r.id >> 10, count(*) FROM new_rows r GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (kind, block) DO UPDATE SET n = b.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ej_id_blocks_insert AFTER INSERT ON ej_records REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ej_id_blocks_apply();
--> statement-breakpoint
CREATE TRIGGER ej_id_blocks_update AFTER UPDATE ON ej_records REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ej_id_blocks_apply();
--> statement-breakpoint
CREATE TRIGGER ej_id_blocks_delete AFTER DELETE ON ej_records REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ej_id_blocks_apply();
--> statement-breakpoint
INSERT INTO ej_id_blocks (kind, block, n)
SELECT kind, id >> 10, count(*) FROM ej_records GROUP BY 1, 2;
