CREATE TABLE `phone_alert_days` (
	`user_id` integer NOT NULL,
	`channel` text NOT NULL,
	`day` text NOT NULL,
	`sent` integer NOT NULL,
	PRIMARY KEY(`user_id`, `channel`, `day`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `phone_alert_days_day_idx` ON `phone_alert_days` (`day`);--> statement-breakpoint
CREATE TABLE `phone_alert_months` (
	`user_id` integer NOT NULL,
	`month` text NOT NULL,
	`sms` integer DEFAULT 0 NOT NULL,
	`sms_parts` integer DEFAULT 0 NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	`answered_calls` integer DEFAULT 0 NOT NULL,
	`call_seconds` integer DEFAULT 0 NOT NULL,
	`call_minutes` integer DEFAULT 0 NOT NULL,
	`capped` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `month`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `phone_alert_months_month_idx` ON `phone_alert_months` (`month`);--> statement-breakpoint
-- Each SMS and call now lives in its pump's hub (docs/telephony.md, "Alerts by SMS and call").
-- What a running fleet's deliveries add up to is carried over before the table goes: every
-- account's IST months for the admin's costs, and today's and yesterday's counts for the caps.
INSERT INTO `phone_alert_months` (`user_id`, `month`, `sms`, `sms_parts`, `calls`, `answered_calls`, `call_seconds`, `call_minutes`, `capped`)
SELECT `user_id`, strftime('%Y-%m', (`created_at` + 19800000) / 1000, 'unixepoch'),
  sum(CASE WHEN `channel` = 'sms' AND `status` NOT IN ('capped', 'refused') THEN 1 ELSE 0 END),
  sum(CASE WHEN `channel` = 'sms' AND `status` NOT IN ('capped', 'refused') THEN coalesce(`segments`, 0) ELSE 0 END),
  sum(CASE WHEN `channel` = 'call' AND `status` NOT IN ('capped', 'refused') THEN 1 ELSE 0 END),
  sum(CASE WHEN `channel` = 'call' AND coalesce(`duration_seconds`, 0) > 0 THEN 1 ELSE 0 END),
  sum(CASE WHEN `channel` = 'call' THEN coalesce(`duration_seconds`, 0) ELSE 0 END),
  sum(CASE WHEN `channel` = 'call' THEN (coalesce(`duration_seconds`, 0) + 59) / 60 ELSE 0 END),
  sum(CASE WHEN `status` = 'capped' THEN 1 ELSE 0 END)
FROM `alert_deliveries` GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO `phone_alert_days` (`user_id`, `channel`, `day`, `sent`)
SELECT `user_id`, `channel`, strftime('%Y-%m-%d', (`created_at` + 19800000) / 1000, 'unixepoch'), count(*)
FROM `alert_deliveries`
WHERE `status` != 'capped' AND `created_at` >= (CAST(strftime('%s', 'now') AS INTEGER) - 2 * 86400) * 1000
GROUP BY 1, 2, 3;--> statement-breakpoint
DROP TABLE `alert_deliveries`;