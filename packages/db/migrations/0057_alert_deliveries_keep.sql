ALTER TABLE "alert_deliveries" DROP CONSTRAINT "alert_deliveries_rule_id_alert_rules_id_fk";
--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE set null ON UPDATE no action;