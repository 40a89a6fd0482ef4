-- The one current definition of each SQL function of disputes (the clock, the linking of records),
-- and of the trigger functions that keep dispute_records' copies (the clock, the journal verdict)
-- and dispute_counts exact. The migration runner applies this file after the migrations, every
-- time (CREATE OR REPLACE, under the migration lock), so this is the one definition: to change a
-- body, change it here (and add a migration only for what the tables themselves need: a column,
-- an index, a trigger, a backfill). Migrations are history: the bodies they once created are replaced by these.
-- No function of this domain is defined anywhere else (test/functions.test.ts checks it). Each
-- trigger function runs once per statement over its transition tables (old_rows, new_rows), but
-- dispute_record_fill_apply, once per row; the triggers that call them are created by the
-- migrations, named below.
-- docs/data-model.md says what each derived table holds and how to add a filter to one.

-- The due date of a clock started on `start`: `days` later, counting every day, or only working
-- days (not Saturday, Sunday or one of the holidays). A working-day clock started on a holiday
-- counts from the next working day.
CREATE OR REPLACE FUNCTION tat_due_date(start date, days integer, working boolean, holidays date[]) RETURNS date
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
CREATE OR REPLACE FUNCTION dispute_clocks_refresh(only_ids bigint[]) RETURNS integer
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
-- dispute_records_link of 0029, its unlinked records found once, before anything is written;
-- then every record not linked yet is (a database upgraded from before 0029), before the
-- copies below are taken.
CREATE OR REPLACE FUNCTION dispute_records_link(only_email bigint) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  unlinked bigint[];
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
  -- The records without a dispute, found before anything is written: an anti-join read while its
  -- own INSERT grows dispute_records rescans the rows written so far for every record (on a table
  -- analyzed empty), and linking 800,000 records ran for hours.
  SELECT coalesce(array_agg(r.id), '{}') INTO unlinked FROM ej_records r
  WHERE r.kind = 'dispute' AND (only_email IS NULL OR r.email_id = only_email)
    AND NOT EXISTS (SELECT 1 FROM dispute_records l WHERE l.record_id = r.id);
  -- Records of a dispute there is already.
  WITH fresh AS (
    SELECT r.id, r.atm_id, r.txt_no, r.card_no FROM ej_records r JOIN unnest(unlinked) AS u(id) ON u.id = r.id
    WHERE r.atm_id <> '' AND r.txt_no <> ''
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
  -- Those still without one.
  IF n > 0 THEN
    SELECT coalesce(array_agg(u.id), '{}') INTO unlinked FROM unnest(unlinked) AS u(id)
    WHERE NOT EXISTS (SELECT 1 FROM dispute_records l WHERE l.record_id = u.id);
  END IF;
  -- New disputes for the rest.
  WITH fresh AS (
    SELECT r.* FROM ej_records r JOIN unnest(unlinked) AS u(id) ON u.id = r.id
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
    SELECT r.id, r.atm_id, r.txt_no, r.card_no FROM ej_records r JOIN unnest(unlinked) AS u(id) ON u.id = r.id
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

-- dispute_records' copies (0030): each dispute record carries its dispute's clock (open or not, due
-- date, start, penalty per day and currency, a resolved one's penalty, its nearest open deadline: 0058) and its own transaction
-- date, bank and sender, so that the clock's filters and orders read dispute_records' indexes.
-- A new dispute record takes them from its dispute and its record (row by row: a primary-key
-- lookup each), and its dispute's journal verdict from dispute_evidence; so does a record moved
-- to another dispute.
-- Trigger: dispute_record_fill, BEFORE INSERT OR UPDATE OF dispute_id, record_id ON dispute_records (migration 0030).
CREATE OR REPLACE FUNCTION dispute_record_fill_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT d.status <> 'resolved', d.due_date, d.clock_started_on, d.penalty_per_day, d.currency,
         CASE WHEN d.status = 'resolved' THEN coalesce(greatest(0, d.stopped_on - d.due_date), 0) * d.penalty_per_day END,
         d.next_deadline
  INTO NEW.open, NEW.due_date, NEW.clock_started_on, NEW.penalty_per_day, NEW.currency, NEW.settled_penalty, NEW.next_deadline
  FROM disputes d WHERE d.id = NEW.dispute_id;
  SELECT r.transaction_date, r.bank_name, r.mail_received_from
  INTO NEW.transaction_date, NEW.bank_name, NEW.mail_received_from
  FROM ej_records r WHERE r.id = NEW.record_id;
  -- The dispute's journal verdict (0046): null when it has no evidence (no row: nulls).
  SELECT e.verdict INTO NEW.verdict FROM dispute_evidence e WHERE e.dispute_id = NEW.dispute_id;
  RETURN NEW;
END
$$;

-- An EJ record deleted takes its dispute_records row with it: what a foreign key's cascade did
-- before ej_records was partitioned by month (0062), which no foreign key can reach by id alone.
-- Trigger: dispute_record_links, AFTER DELETE ON ej_records (migration 0062).
CREATE OR REPLACE FUNCTION dispute_record_links_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM dispute_records WHERE record_id IN (SELECT id FROM old_rows);
  RETURN NULL;
END
$$;

-- A dispute whose clock changed (a status, a rule applied, a date learnt, its nearest deadline): its records' copies
-- follow in the same statement (a rule change moves them all at once). Compared with the copies,
-- not with the old rows: one transition table, joined through dispute_records' index, and run by
-- EXECUTE so that it is planned for this statement's rows (a plan cached from one-row updates,
-- joining the two transition tables row by row, took minutes for 10,000 disputes on PGlite).
-- Trigger: dispute_record_copies, AFTER UPDATE ON disputes (migration 0030).
CREATE OR REPLACE FUNCTION dispute_record_copies_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE $update$
    UPDATE dispute_records l SET
      open = c.open, due_date = c.due_date, clock_started_on = c.clock_started_on, penalty_per_day = c.penalty_per_day,
      currency = c.currency, settled_penalty = c.settled_penalty, next_deadline = c.next_deadline
    FROM (
      SELECT n.id, n.status <> 'resolved' AS open, n.due_date, n.clock_started_on, n.penalty_per_day, n.currency,
             CASE WHEN n.status = 'resolved' THEN coalesce(greatest(0, n.stopped_on - n.due_date), 0) * n.penalty_per_day END AS settled_penalty,
             n.next_deadline
      FROM new_rows n
    ) c
    WHERE l.dispute_id = c.id
      AND (l.open, l.due_date, l.clock_started_on, l.penalty_per_day, l.currency, l.settled_penalty, l.next_deadline)
          IS DISTINCT FROM (c.open, c.due_date, c.clock_started_on, c.penalty_per_day, c.currency, c.settled_penalty, c.next_deadline)
  $update$;
  RETURN NULL;
END
$$;

-- dispute_records' copy of the verdict (0046): each dispute record carries its dispute's journal
-- verdict (dispute_evidence's, null without one), so that the EJ table's verdict filter is a range
-- of dispute_records' (verdict, record_id) index. Evidence written, changed or removed: its
-- disputes' records take the verdict the evidence now holds (read from dispute_evidence itself, so
-- a statement that writes a dispute's row twice leaves its last word). A new or moved record takes
-- its dispute's in dispute_record_fill_apply.
-- Triggers: dispute_evidence_verdict_insert, dispute_evidence_verdict_update,
-- dispute_evidence_verdict_delete on dispute_evidence (migration 0046).
CREATE OR REPLACE FUNCTION dispute_evidence_verdict_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE $update$
      UPDATE dispute_records l SET verdict = e.verdict
      FROM (SELECT DISTINCT dispute_id FROM new_rows) t JOIN dispute_evidence e ON e.dispute_id = t.dispute_id
      WHERE l.dispute_id = t.dispute_id AND l.verdict IS DISTINCT FROM e.verdict
    $update$;
  ELSE
    -- An update may move a row to another dispute: both its old and its new dispute are looked at.
    EXECUTE format($update$
      UPDATE dispute_records l SET verdict = e.verdict
      FROM (%s) t LEFT JOIN dispute_evidence e ON e.dispute_id = t.dispute_id
      WHERE l.dispute_id = t.dispute_id AND l.verdict IS DISTINCT FROM e.verdict
    $update$, CASE TG_OP WHEN 'UPDATE' THEN 'SELECT dispute_id FROM old_rows UNION SELECT dispute_id FROM new_rows' ELSE 'SELECT DISTINCT dispute_id FROM old_rows' END);
  END IF;
  RETURN NULL;
END
$$;

-- dispute_counts: dispute records per clock (an open one's due date, start, penalty per day and
-- currency; a resolved one's without) and per transaction day, bank and sender. The clock filters'
-- counts and the dashboard's ageing card sum these rows. Keys emptied stay, at 0. An update
-- writes only the keys whose count it changed.
-- Triggers: dispute_counts_insert, dispute_counts_update, dispute_counts_delete on dispute_records (migration 0030).
CREATE OR REPLACE FUNCTION dispute_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    -- The old rows taken off and the new added, netted per key: an update of columns no key holds
    -- (the verdict's copy) writes nothing.
    INSERT INTO dispute_counts AS c (open, due_date, clock_started_on, penalty_per_day, currency, transaction_day, bank_name, mail_received_from, n)
    SELECT open, due_date, clock_started_on, penalty_per_day, currency, transaction_date, bank_name, mail_received_from, sum(d)
    FROM (
      SELECT open, CASE WHEN open THEN due_date END AS due_date, CASE WHEN open THEN clock_started_on END AS clock_started_on,
             CASE WHEN open THEN penalty_per_day ELSE 0 END AS penalty_per_day, CASE WHEN open THEN currency ELSE '' END AS currency,
             transaction_date, bank_name, mail_received_from, -1 AS d
      FROM old_rows
      UNION ALL
      SELECT open, CASE WHEN open THEN due_date END, CASE WHEN open THEN clock_started_on END, CASE WHEN open THEN penalty_per_day ELSE 0 END,
             CASE WHEN open THEN currency ELSE '' END, transaction_date, bank_name, mail_received_from, 1
      FROM new_rows
    ) moved
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT (open, due_date, clock_started_on, penalty_per_day, currency, transaction_day, bank_name, mail_received_from) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  IF TG_OP = 'DELETE' THEN
    INSERT INTO dispute_counts AS c (open, due_date, clock_started_on, penalty_per_day, currency, transaction_day, bank_name, mail_received_from, n)
    SELECT open, CASE WHEN open THEN due_date END, CASE WHEN open THEN clock_started_on END, CASE WHEN open THEN penalty_per_day ELSE 0 END,
           CASE WHEN open THEN currency ELSE '' END, transaction_date, bank_name, mail_received_from, -count(*)
    FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT (open, due_date, clock_started_on, penalty_per_day, currency, transaction_day, bank_name, mail_received_from) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO dispute_counts AS c (open, due_date, clock_started_on, penalty_per_day, currency, transaction_day, bank_name, mail_received_from, n)
    SELECT open, CASE WHEN open THEN due_date END, CASE WHEN open THEN clock_started_on END, CASE WHEN open THEN penalty_per_day ELSE 0 END,
           CASE WHEN open THEN currency ELSE '' END, transaction_date, bank_name, mail_received_from, count(*)
    FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT (open, due_date, clock_started_on, penalty_per_day, currency, transaction_day, bank_name, mail_received_from) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;

--> statement-breakpoint
-- The rule-set clocks of one dispute on a day: every clock of an active rule set of its network (or
-- of every network) whose start has happened: the transaction or complaint date, or the day the
-- dispute entered the clock's starting stage. Each is due `days` later as the clock counts them
-- (tat_due_date, with its calendar's holidays), and stopped on the first day the dispute reached one
-- of its stopping stages, or was resolved (closed stops every clock). Computed when read: a
-- dispute's page asks for a few.
CREATE OR REPLACE FUNCTION dispute_rule_clocks(dispute bigint)
RETURNS TABLE (clock_id integer, clock_key text, clock_name text, rule_set text, party text, started_on date, due_on date, stopped_on date)
LANGUAGE sql STABLE AS $$
  WITH d AS (SELECT * FROM disputes WHERE id = dispute),
  runs AS (
    SELECT c.id, c.key, c.name, s.name AS rule_set, c.party, c.days, c.day_kind, coalesce(cal.days, '{}'::date[]) AS holidays,
      CASE c.starts_on
        WHEN 'transaction' THEN d.transaction_date
        WHEN 'complaint' THEN d.complaint_date
        ELSE (SELECT st.entered_on FROM dispute_stages st WHERE st.dispute_id = d.id AND st.stage = c.starts_on)
      END AS started,
      least(
        (SELECT min(st.entered_on) FROM dispute_stages st WHERE st.dispute_id = d.id AND st.stage = ANY (c.stops_at)),
        CASE WHEN d.status = 'resolved' THEN coalesce(d.stopped_on, d.status_at::date) END
      ) AS stopped
    FROM d
    JOIN rule_sets s ON s.active AND (s.network = '' OR lower(s.network) = lower(d.network))
    JOIN rule_clocks c ON c.rule_set_id = s.id
    LEFT JOIN holiday_calendars cal ON cal.name = c.calendar
  )
  SELECT id, key, name, rule_set, party, started, tat_due_date(started, days, day_kind = 'working', holidays), stopped
  FROM runs WHERE started IS NOT NULL
$$;

--> statement-breakpoint
-- The nearest running rule-set clock of disputes (all, or those given): its due day and name kept on
-- the dispute (rule_deadline, rule_deadline_clock), so that next_deadline, the least of it and the
-- TAT due date, is a column the lists sort by (dispute_rule_clocks computes a clock when read: too
-- slow to order a million disputes by). Only disputes that may run one are read: open ones with an
-- active rule set of their network, and those that ran one. EXECUTE plans each call for its ids.
-- The stored deadlines follow dispute_rule_clocks' and tat_due_date's bodies: a change to either
-- needs a migration that runs dispute_rule_deadlines_refresh(NULL).
CREATE OR REPLACE FUNCTION dispute_rule_deadlines_refresh(only_ids bigint[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE changed integer;
BEGIN
  EXECUTE format($update$
    WITH nearest AS (
      SELECT d.id, n.due_on, n.clock_name
      FROM %s d
      LEFT JOIN LATERAL (
        SELECT c.due_on, c.clock_name FROM dispute_rule_clocks(d.id) c
        WHERE c.stopped_on IS NULL ORDER BY c.due_on, c.clock_key LIMIT 1
      ) n ON d.status <> 'resolved'
      WHERE d.rule_deadline IS NOT NULL
         OR (d.status <> 'resolved' AND EXISTS (
              SELECT 1 FROM rule_sets s WHERE s.active AND (s.network = '' OR lower(s.network) = lower(d.network))))
    )
    UPDATE disputes d SET rule_deadline = n.due_on, rule_deadline_clock = n.clock_name
    FROM nearest n
    WHERE d.id = n.id AND (d.rule_deadline, d.rule_deadline_clock) IS DISTINCT FROM (n.due_on, n.clock_name)
  $update$, CASE WHEN only_ids IS NULL THEN 'disputes' ELSE '(SELECT * FROM disputes WHERE id = ANY ($1))' END) USING only_ids;
  GET DIAGNOSTICS changed = ROW_COUNT;
  RETURN changed;
END $$;

--> statement-breakpoint
-- What moves a rule-set clock: a dispute made, or its network, status or dates changed (not its own
-- rule_deadline: that write ends here), a stage entered or taken back, and any change to the rule
-- sets, their clocks or calendars (every dispute then). Transition tables joined by EXECUTE, planned
-- for this statement's rows.
-- Triggers: dispute_rule_deadlines_insert, dispute_rule_deadlines_update on disputes;
-- dispute_stages_deadlines_insert, _update, _delete on dispute_stages; rule_sets_deadlines,
-- rule_clocks_deadlines, holiday_calendars_deadlines (migration 0058).
CREATE OR REPLACE FUNCTION dispute_rule_deadlines_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids bigint[];
BEGIN
  IF TG_TABLE_NAME IN ('rule_sets', 'rule_clocks', 'holiday_calendars') THEN
    PERFORM dispute_rule_deadlines_refresh(NULL);
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'disputes' AND TG_OP = 'INSERT' THEN
    EXECUTE 'SELECT array_agg(id) FROM new_rows WHERE status <> ''resolved''' INTO ids;
  ELSIF TG_TABLE_NAME = 'disputes' THEN
    EXECUTE $ids$
      SELECT array_agg(n.id) FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.network, n.status, n.stopped_on, n.status_at, n.transaction_date, n.complaint_date)
            IS DISTINCT FROM (o.network, o.status, o.stopped_on, o.status_at, o.transaction_date, o.complaint_date)
    $ids$ INTO ids;
  ELSE
    EXECUTE format('SELECT array_agg(DISTINCT dispute_id) FROM (%s) t', CASE TG_OP
      WHEN 'INSERT' THEN 'SELECT dispute_id FROM new_rows'
      WHEN 'UPDATE' THEN 'SELECT dispute_id FROM old_rows UNION SELECT dispute_id FROM new_rows'
      ELSE 'SELECT dispute_id FROM old_rows' END) INTO ids;
  END IF;
  IF ids IS NOT NULL THEN PERFORM dispute_rule_deadlines_refresh(ids); END IF;
  RETURN NULL;
END $$;
