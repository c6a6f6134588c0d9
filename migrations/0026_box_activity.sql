CREATE TABLE `box_activity` (
	`device_id` text PRIMARY KEY NOT NULL,
	`log_entries` integer DEFAULT 0 NOT NULL,
	`last_switch_at` integer,
	`last_trip_at` integer,
	`phase_fault` integer DEFAULT false NOT NULL,
	`theft_alerts` text DEFAULT '[]' NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`device_id`) REFERENCES `devices`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- What the dashboard counted from motor_logs, carried over once for every box: from now on each
-- box's hub keeps its row current. Its log entries are counted where they are: the hub counts
-- those it holds, and the dashboard adds what D1 still holds until the move has taken it.
INSERT INTO `box_activity` (`device_id`, `log_entries`, `last_switch_at`, `last_trip_at`, `phase_fault`, `theft_alerts`, `updated_at`)
SELECT `devices`.`id`, 0,
  (SELECT max(`created_at`) FROM `motor_logs` WHERE `device_id` = `devices`.`id` AND `action` IN ('on', 'off')),
  (SELECT max(`created_at`) FROM `motor_logs` WHERE `device_id` = `devices`.`id`
    AND `kind` IN ('tripDryRun', 'tripOverCurrent', 'tripUnderVoltage', 'tripOverVoltage', 'tripVoltageUnbalance')),
  coalesce((SELECT `kind` = 'phaseFault' FROM `motor_logs` WHERE `device_id` = `devices`.`id`
    AND `kind` IN ('phaseFault', 'phaseOk') ORDER BY `created_at` DESC, `id` DESC LIMIT 1), 0),
  coalesce((SELECT json_group_array(`created_at`) FROM (SELECT `created_at` FROM `motor_logs`
    WHERE `device_id` = `devices`.`id` AND `kind` IN ('tamper', 'cableCut')
    ORDER BY `created_at` DESC LIMIT 20)), '[]'),
  CAST(unixepoch('subsec') * 1000 AS INTEGER)
FROM `devices`;
