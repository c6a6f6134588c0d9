CREATE TABLE `plan_periods` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`device_id` text NOT NULL,
	`plan` text NOT NULL,
	`amount` integer NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`recharge_request_id` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`device_id`) REFERENCES `devices`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`recharge_request_id`) REFERENCES `recharge_requests`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `plan_periods_recharge_request_id_unique` ON `plan_periods` (`recharge_request_id`);--> statement-breakpoint
CREATE INDEX `plan_periods_device_idx` ON `plan_periods` (`device_id`,`ends_at`);--> statement-breakpoint
ALTER TABLE `devices` ADD `activated_at` integer;