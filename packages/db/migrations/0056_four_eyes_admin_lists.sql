ALTER TABLE "change_requests" DROP CONSTRAINT "change_requests_action_check";--> statement-breakpoint
ALTER TABLE "four_eyes_settings" DROP CONSTRAINT "four_eyes_settings_action_check";--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_action_check" CHECK ("change_requests"."action" in ('resolve_credited', 'resolve_rejected', 'bulk_status', 'tat_rule', 'bank_password'));--> statement-breakpoint
ALTER TABLE "four_eyes_settings" ADD CONSTRAINT "four_eyes_settings_action_check" CHECK ("four_eyes_settings"."action" in ('resolve_credited', 'resolve_rejected', 'bulk_status', 'tat_rule', 'bank_password'));--> statement-breakpoint
INSERT INTO four_eyes_settings (action, enabled, threshold) VALUES ('tat_rule', false, 0), ('bank_password', false, 0);
