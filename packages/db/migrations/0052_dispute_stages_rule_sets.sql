CREATE TABLE "dispute_stages" (
	"dispute_id" bigint NOT NULL,
	"stage" text NOT NULL,
	"entered_on" date NOT NULL,
	CONSTRAINT "dispute_stages_dispute_id_stage_pk" PRIMARY KEY("dispute_id","stage")
);
--> statement-breakpoint
CREATE TABLE "holiday_calendars" (
	"name" text PRIMARY KEY NOT NULL,
	"description" text NOT NULL,
	"days" date[] DEFAULT '{}'::date[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rule_clocks" (
	"id" serial PRIMARY KEY NOT NULL,
	"rule_set_id" integer NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"party" text NOT NULL,
	"starts_on" text NOT NULL,
	"stops_at" text[] NOT NULL,
	"days" integer NOT NULL,
	"day_kind" text NOT NULL,
	"calendar" text,
	"penalty_per_day" numeric(14, 2) DEFAULT '0' NOT NULL,
	"currency" text DEFAULT '' NOT NULL,
	CONSTRAINT "rule_clocks_party_check" CHECK ("rule_clocks"."party" in ('issuer', 'acquirer', 'bank')),
	CONSTRAINT "rule_clocks_starts_on_check" CHECK ("rule_clocks"."starts_on" in ('transaction', 'complaint', 'chargeback_raised', 'representment', 'pre_arbitration', 'arbitration', 'closed')),
	CONSTRAINT "rule_clocks_day_kind_check" CHECK ("rule_clocks"."day_kind" in ('calendar', 'working')),
	CONSTRAINT "rule_clocks_days_check" CHECK ("rule_clocks"."days" between 0 and 3650)
);
--> statement-breakpoint
CREATE TABLE "rule_sets" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"source" text NOT NULL,
	"network" text DEFAULT '' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"create_at" timestamp with time zone DEFAULT now() NOT NULL,
	"update_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dispute_events" ADD COLUMN "stage" text;--> statement-breakpoint
ALTER TABLE "disputes" ADD COLUMN "network" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "disputes" ADD COLUMN "stage" text DEFAULT 'complaint' NOT NULL;--> statement-breakpoint
ALTER TABLE "disputes" ADD COLUMN "cost_bearer" text;--> statement-breakpoint
ALTER TABLE "dispute_stages" ADD CONSTRAINT "dispute_stages_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_clocks" ADD CONSTRAINT "rule_clocks_rule_set_id_rule_sets_id_fk" FOREIGN KEY ("rule_set_id") REFERENCES "public"."rule_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_clocks" ADD CONSTRAINT "rule_clocks_calendar_holiday_calendars_name_fk" FOREIGN KEY ("calendar") REFERENCES "public"."holiday_calendars"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rule_clocks_key" ON "rule_clocks" USING btree ("key");--> statement-breakpoint
CREATE INDEX "rule_clocks_set_idx" ON "rule_clocks" USING btree ("rule_set_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rule_sets_name_key" ON "rule_sets" USING btree (lower("name"));--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_stage_check" CHECK ("disputes"."stage" in ('complaint', 'chargeback_raised', 'representment', 'accepted', 'pre_arbitration', 'arbitration', 'closed'));--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_cost_bearer_check" CHECK ("disputes"."cost_bearer" is null or "disputes"."cost_bearer" in ('issuer', 'acquirer'));--> statement-breakpoint
-- The calendars of the seeded working-day clocks, 2026 to 2028 (an admin adds later years).
-- The Federal Reserve's holidays as it observes them: one on a Sunday moves to Monday, one on a
-- Saturday does not move (the Reserve Banks open the Friday before). TARGET2's closing days do not move.
INSERT INTO holiday_calendars (name, description, days) VALUES
('us-federal-reserve', 'Federal Reserve System holidays (Regulation E business days)', ARRAY[
  '2026-01-01','2026-01-19','2026-02-16','2026-05-25','2026-06-19','2026-09-07','2026-10-12','2026-11-11','2026-11-26','2026-12-25',
  '2027-01-01','2027-01-18','2027-02-15','2027-05-31','2027-07-05','2027-09-06','2027-10-11','2027-11-11','2027-11-25',
  '2028-01-17','2028-02-21','2028-05-29','2028-06-19','2028-07-04','2028-09-04','2028-10-09','2028-11-23','2028-12-25']::date[]),
('target2', 'TARGET2 closing days (euro area business days)', ARRAY[
  '2026-01-01','2026-04-03','2026-04-06','2026-05-01','2026-12-25','2026-12-26',
  '2027-01-01','2027-03-26','2027-03-29','2027-05-01','2027-12-25','2027-12-26',
  '2028-01-01','2028-04-14','2028-04-17','2028-05-01','2028-12-25','2028-12-26']::date[]);
--> statement-breakpoint
-- The rule sets as written (docs/disputes.md gives each source). NFS and Visa run on the disputes of
-- their network; Regulation E and PSD2 are a jurisdiction's, so they apply to every dispute once an
-- admin turns the one of the bank's country on.
INSERT INTO rule_sets (name, source, network, active) VALUES
('NPCI NFS', 'NPCI, NFS Operating and Settlement Guidelines (dispute management): chargeback within 60 days of the transaction, representment or acceptance within 5 days of it; pre-arbitration and arbitration within 30 days each', 'NFS', true),
('Visa', 'Visa Core Rules and Visa Claims Resolution, dispute condition 13.9 (non-receipt of cash): dispute within 120 days, response, pre-arbitration and its response within 30 days each', 'Visa', true),
('Regulation E', '12 CFR 1005.11(c) (Regulation E, error resolution): investigate within 10 business days of the notice, or credit provisionally and finish within 45 days', '', false),
('PSD2', 'Directive (EU) 2015/2366 (PSD2), Article 73: refund an unauthorised transaction by the end of the following business day after notice', '', false);
--> statement-breakpoint
INSERT INTO rule_clocks (rule_set_id, key, name, party, starts_on, stops_at, days, day_kind, calendar)
SELECT s.id, c.key, c.name, c.party, c.starts_on, c.stops_at::text[], c.days, c.day_kind, c.calendar
FROM (VALUES
  ('NPCI NFS', 'nfs.chargeback', 'Chargeback raised', 'issuer', 'transaction', '{chargeback_raised,representment,accepted,pre_arbitration,arbitration}', 60, 'calendar', NULL),
  ('NPCI NFS', 'nfs.representment', 'Representment or acceptance', 'acquirer', 'chargeback_raised', '{representment,accepted,pre_arbitration,arbitration}', 5, 'calendar', NULL),
  ('NPCI NFS', 'nfs.pre_arbitration', 'Pre-arbitration raised', 'issuer', 'representment', '{pre_arbitration,arbitration}', 30, 'calendar', NULL),
  ('NPCI NFS', 'nfs.arbitration', 'Arbitration raised', 'issuer', 'pre_arbitration', '{arbitration}', 30, 'calendar', NULL),
  ('Visa', 'visa.dispute', 'Dispute raised', 'issuer', 'transaction', '{chargeback_raised,representment,accepted,pre_arbitration,arbitration}', 120, 'calendar', NULL),
  ('Visa', 'visa.response', 'Dispute response', 'acquirer', 'chargeback_raised', '{representment,accepted,pre_arbitration,arbitration}', 30, 'calendar', NULL),
  ('Visa', 'visa.pre_arbitration', 'Pre-arbitration filed', 'issuer', 'representment', '{pre_arbitration,arbitration}', 30, 'calendar', NULL),
  ('Visa', 'visa.pre_arbitration_response', 'Pre-arbitration response', 'acquirer', 'pre_arbitration', '{arbitration}', 30, 'calendar', NULL),
  ('Regulation E', 'rege.investigate', 'Investigate, or credit provisionally', 'bank', 'complaint', '{}', 10, 'working', 'us-federal-reserve'),
  ('Regulation E', 'rege.finish', 'Finish the investigation', 'bank', 'complaint', '{}', 45, 'calendar', NULL),
  ('PSD2', 'psd2.refund', 'Refund the unauthorised transaction', 'bank', 'complaint', '{}', 1, 'working', 'target2')
) AS c(set_name, key, name, party, starts_on, stops_at, days, day_kind, calendar)
JOIN rule_sets s ON s.name = c.set_name;
--> statement-breakpoint
-- A dispute's rule-set clocks, as they were here (disputes/functions.sql holds the current definition).
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
