CREATE TABLE "dispute_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"dispute_id" bigint NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	"user_id" integer,
	"actor" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"outcome" text,
	"reason" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"email_id" bigint
);
--> statement-breakpoint
CREATE TABLE "dispute_records" (
	"record_id" bigint PRIMARY KEY NOT NULL,
	"dispute_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disputes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"atm_id" text NOT NULL,
	"txt_no" text NOT NULL,
	"card_no" text DEFAULT '' NOT NULL,
	"bank_name" text DEFAULT '' NOT NULL,
	"transaction_date" date,
	"complaint_date" date,
	"first_record_id" bigint NOT NULL,
	"rule_id" integer,
	"clock_started_on" date,
	"due_date" date,
	"penalty_per_day" numeric(14, 2) DEFAULT '0' NOT NULL,
	"currency" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"outcome" text,
	"stopped_on" date,
	"status_source" text DEFAULT 'mail' NOT NULL,
	"status_reason" text DEFAULT '' NOT NULL,
	"status_by" text DEFAULT '' NOT NULL,
	"status_at" timestamp with time zone DEFAULT now() NOT NULL,
	"create_at" timestamp with time zone DEFAULT now() NOT NULL,
	"update_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "disputes_status_check" CHECK ("disputes"."status" in ('open', 'awaiting_msp', 'resolved')),
	CONSTRAINT "disputes_outcome_check" CHECK (("disputes"."status" = 'resolved') = ("disputes"."outcome" is not null) and ("disputes"."outcome" is null or "disputes"."outcome" in ('credited', 'rejected', 'other'))),
	CONSTRAINT "disputes_status_source_check" CHECK ("disputes"."status_source" in ('mail', 'operator'))
);
--> statement-breakpoint
CREATE TABLE "tat_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"scope" text NOT NULL,
	"scope_value" text DEFAULT '' NOT NULL,
	"clock_start" text NOT NULL,
	"days" integer NOT NULL,
	"day_kind" text NOT NULL,
	"holidays" date[] DEFAULT '{}'::date[] NOT NULL,
	"penalty_per_day" numeric(14, 2) DEFAULT '0' NOT NULL,
	"currency" text NOT NULL,
	"create_at" timestamp with time zone DEFAULT now() NOT NULL,
	"update_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tat_rules_scope_check" CHECK ("tat_rules"."scope" in ('all', 'bank', 'msp') and ("tat_rules"."scope" = 'all') = ("tat_rules"."scope_value" = '')),
	CONSTRAINT "tat_rules_clock_start_check" CHECK ("tat_rules"."clock_start" in ('transaction_date', 'complaint_date')),
	CONSTRAINT "tat_rules_day_kind_check" CHECK ("tat_rules"."day_kind" in ('calendar', 'working')),
	CONSTRAINT "tat_rules_days_check" CHECK ("tat_rules"."days" between 0 and 3650),
	CONSTRAINT "tat_rules_penalty_check" CHECK ("tat_rules"."penalty_per_day" >= 0)
);
--> statement-breakpoint
ALTER TABLE "dispute_events" ADD CONSTRAINT "dispute_events_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute_events" ADD CONSTRAINT "dispute_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute_events" ADD CONSTRAINT "dispute_events_email_id_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."emails"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute_records" ADD CONSTRAINT "dispute_records_record_id_ej_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."ej_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute_records" ADD CONSTRAINT "dispute_records_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_rule_id_tat_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."tat_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dispute_events_dispute_idx" ON "dispute_events" USING btree ("dispute_id","id");--> statement-breakpoint
CREATE INDEX "dispute_records_dispute_idx" ON "dispute_records" USING btree ("dispute_id","record_id");--> statement-breakpoint
CREATE INDEX "disputes_txn_idx" ON "disputes" USING btree ("txt_no","atm_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "disputes_first_record_key" ON "disputes" USING btree ("first_record_id");--> statement-breakpoint
CREATE INDEX "disputes_open_due_idx" ON "disputes" USING btree ("due_date","id") WHERE "disputes"."status" <> 'resolved';--> statement-breakpoint
CREATE INDEX "disputes_status_idx" ON "disputes" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "disputes_rule_idx" ON "disputes" USING btree ("rule_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tat_rules_scope_key" ON "tat_rules" USING btree ("scope",lower("scope_value"));--> statement-breakpoint
CREATE UNIQUE INDEX "tat_rules_name_key" ON "tat_rules" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "data_file_rows_txn_idx" ON "data_file_rows" USING btree ("txt_no","atm_id");--> statement-breakpoint
-- The due date of a clock started on `start`: `days` later, counting every day, or only working
-- days (not Saturday, Sunday or one of the holidays). A working-day clock started on a holiday
-- counts from the next working day.
CREATE FUNCTION tat_due_date(start date, days integer, working boolean, holidays date[]) RETURNS date
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  day date := start;
  left_to_count integer := days;
BEGIN
  IF start IS NULL THEN RETURN NULL; END IF;
  IF NOT working THEN RETURN start + days; END IF;
  WHILE left_to_count > 0 LOOP
    day := day + 1;
    IF extract(isodow FROM day) < 6 AND NOT (day = ANY (holidays)) THEN
      left_to_count := left_to_count - 1;
    END IF;
  END LOOP;
  RETURN day;
END $$;
--> statement-breakpoint
-- Apply the rules to open disputes (all, or those given): the most specific rule covering each
-- (its bank's, its MSP's through the Bank MSP list, the one for all), the day its clock started,
-- the due date, the penalty per day. A resolved dispute keeps the rule it was resolved under.
-- The rule is chosen once per bank and the due date once per (rule, start day): a change to a rule
-- moves a million open disputes in one statement.
CREATE FUNCTION dispute_clocks_refresh(only_ids bigint[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE changed integer;
BEGIN
  WITH open_disputes AS (
    SELECT d.* FROM disputes d WHERE d.status <> 'resolved' AND (only_ids IS NULL OR d.id IN (SELECT unnest(only_ids)))
  ), bank_rules AS (
    SELECT b.bank_name, r.id AS rule_id, r.clock_start, r.days, r.day_kind, r.holidays, r.penalty_per_day, r.currency
    FROM (SELECT DISTINCT bank_name FROM open_disputes) b
    LEFT JOIN LATERAL (
      SELECT r.* FROM tat_rules r
      WHERE r.scope = 'all'
         OR (r.scope = 'bank' AND lower(r.scope_value) = lower(b.bank_name))
         OR (r.scope = 'msp' AND EXISTS (SELECT 1 FROM bank_msps m WHERE lower(m.bank_name) = lower(b.bank_name) AND lower(m.msp) = lower(r.scope_value)))
      ORDER BY CASE r.scope WHEN 'bank' THEN 0 WHEN 'msp' THEN 1 ELSE 2 END, r.id
      LIMIT 1
    ) r ON true
  ), chosen AS (
    SELECT d.id, br.rule_id, br.days, br.day_kind, br.holidays,
           coalesce(br.penalty_per_day, 0) AS penalty_per_day, coalesce(br.currency, '') AS currency,
           CASE br.clock_start WHEN 'complaint_date' THEN d.complaint_date WHEN 'transaction_date' THEN d.transaction_date END AS started
    FROM open_disputes d JOIN bank_rules br ON br.bank_name = d.bank_name
  ), dues AS (
    SELECT rule_id, started, tat_due_date(started, days, day_kind = 'working', holidays) AS due
    FROM (SELECT DISTINCT rule_id, started, days, day_kind, holidays FROM chosen WHERE rule_id IS NOT NULL AND started IS NOT NULL) s
  )
  UPDATE disputes d
  SET rule_id = c.rule_id, clock_started_on = c.started, due_date = dues.due,
      penalty_per_day = c.penalty_per_day, currency = c.currency, update_at = now()
  FROM chosen c LEFT JOIN dues ON dues.rule_id = c.rule_id AND dues.started = c.started
  WHERE d.id = c.id
    AND (d.rule_id, d.clock_started_on, d.due_date, d.penalty_per_day, d.currency)
        IS DISTINCT FROM (c.rule_id, c.started, dues.due, c.penalty_per_day, c.currency);
  GET DIAGNOSTICS changed = ROW_COUNT;
  RETURN changed;
END $$;
--> statement-breakpoint
-- Give every dispute record without a dispute one (all, or one email's): the dispute of the same
-- ATM ID and transaction number whose card is the same or not known on either side, else a new
-- one, one per (ATM ID, transaction, card) among the new records. A record without an ATM ID or
-- transaction number is a dispute of its own. New disputes get their clocks; a dispute a record
-- joins takes the dates it lacked. Workers take turns (an advisory lock for the transaction), so
-- two messages about one new transaction make one dispute. Returns the records linked.
CREATE FUNCTION dispute_records_link(only_email bigint) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  joined bigint[];
  created bigint[];
  linked integer := 0;
  n integer;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('dispute_records_link'));
  -- Linking everything (a migration, a seed) writes as many rows as the tables held: fresh
  -- statistics after each step, or the next is planned for the tables as they were (a nested loop
  -- over a table thought empty took hours at 1,000,000 records).
  IF only_email IS NULL THEN ANALYZE ej_records, disputes, dispute_records; END IF;
  -- Records of a dispute there is already.
  WITH fresh AS (
    SELECT r.id, r.atm_id, r.txt_no, r.card_no FROM ej_records r
    WHERE r.kind = 'dispute' AND (only_email IS NULL OR r.email_id = only_email) AND r.atm_id <> '' AND r.txt_no <> ''
      AND NOT EXISTS (SELECT 1 FROM dispute_records l WHERE l.record_id = r.id)
  ), matched AS (
    INSERT INTO dispute_records (record_id, dispute_id)
    SELECT f.id, m.id FROM fresh f
    CROSS JOIN LATERAL (
      SELECT d.id FROM disputes d
      WHERE d.txt_no = f.txt_no AND d.atm_id = f.atm_id AND (d.card_no = '' OR f.card_no = '' OR d.card_no = f.card_no)
      ORDER BY d.id LIMIT 1
    ) m
    RETURNING dispute_id
  )
  SELECT array_agg(DISTINCT dispute_id), count(*) INTO joined, n FROM matched;
  linked := linked + n;
  IF only_email IS NULL THEN ANALYZE dispute_records; END IF;
  -- New disputes for the rest.
  WITH fresh AS (
    SELECT r.* FROM ej_records r
    WHERE r.kind = 'dispute' AND (only_email IS NULL OR r.email_id = only_email)
      AND NOT EXISTS (SELECT 1 FROM dispute_records l WHERE l.record_id = r.id)
  ), made AS (
    INSERT INTO disputes (atm_id, txt_no, card_no, bank_name, transaction_date, complaint_date, first_record_id)
    SELECT DISTINCT ON (CASE WHEN atm_id <> '' AND txt_no <> '' THEN atm_id || chr(31) || txt_no || chr(31) || card_no ELSE 'record ' || id END)
           atm_id, txt_no, card_no, bank_name, transaction_date, complaint_date, id
    FROM fresh
    ORDER BY CASE WHEN atm_id <> '' AND txt_no <> '' THEN atm_id || chr(31) || txt_no || chr(31) || card_no ELSE 'record ' || id END, id
    RETURNING id
  )
  SELECT array_agg(id) INTO created FROM made;
  IF only_email IS NULL THEN ANALYZE disputes; END IF;
  -- Every record left: its own new dispute, or one of the new ones.
  WITH fresh AS (
    SELECT r.id, r.atm_id, r.txt_no, r.card_no FROM ej_records r
    WHERE r.kind = 'dispute' AND (only_email IS NULL OR r.email_id = only_email)
      AND NOT EXISTS (SELECT 1 FROM dispute_records l WHERE l.record_id = r.id)
  ), placed AS (
    INSERT INTO dispute_records (record_id, dispute_id)
    SELECT f.id, coalesce(own.id, m.id) FROM fresh f
    LEFT JOIN disputes own ON own.first_record_id = f.id
    LEFT JOIN LATERAL (
      SELECT d.id FROM disputes d
      WHERE f.atm_id <> '' AND f.txt_no <> '' AND d.txt_no = f.txt_no AND d.atm_id = f.atm_id
        AND (d.card_no = '' OR f.card_no = '' OR d.card_no = f.card_no)
      ORDER BY d.id LIMIT 1
    ) m ON own.id IS NULL
    RETURNING 1
  )
  SELECT count(*) INTO n FROM placed;
  linked := linked + n;
  IF joined IS NOT NULL THEN
    UPDATE disputes d SET
      transaction_date = coalesce(d.transaction_date, x.transaction_date),
      complaint_date = coalesce(d.complaint_date, x.complaint_date),
      update_at = now()
    FROM (
      SELECT l.dispute_id, min(r.transaction_date) AS transaction_date, min(r.complaint_date) AS complaint_date
      FROM dispute_records l JOIN ej_records r ON r.id = l.record_id
      WHERE l.dispute_id IN (SELECT unnest(joined)) GROUP BY l.dispute_id
    ) x
    WHERE d.id = x.dispute_id
      AND ((d.transaction_date IS NULL AND x.transaction_date IS NOT NULL) OR (d.complaint_date IS NULL AND x.complaint_date IS NOT NULL));
  END IF;
  -- Linking everything (a migration, a seed) sets every open clock; one email's, its disputes'.
  IF only_email IS NULL THEN
    PERFORM dispute_clocks_refresh(NULL);
  ELSIF created IS NOT NULL OR joined IS NOT NULL THEN
    PERFORM dispute_clocks_refresh(coalesce(created, '{}') || coalesce(joined, '{}'));
  END IF;
  RETURN linked;
END $$;
--> statement-breakpoint
-- The Reserve Bank of India's harmonised turnaround: a failed ATM cash withdrawal reversed by T+5
-- calendar days, then Rs 100 a day to the customer.
INSERT INTO tat_rules (name, scope, scope_value, clock_start, days, day_kind, penalty_per_day, currency)
VALUES ('RBI harmonised TAT (failed ATM withdrawal)', 'all', '', 'transaction_date', 5, 'calendar', 100, 'INR');
--> statement-breakpoint
-- The records there are are linked by 0030, with the function as it redefines it.
SELECT 1;
