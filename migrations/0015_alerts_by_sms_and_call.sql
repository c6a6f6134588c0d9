CREATE TABLE `alert_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`device_id` text NOT NULL,
	`kind` text NOT NULL,
	`channel` text NOT NULL,
	`reason` text NOT NULL,
	`language` text NOT NULL,
	`values` text NOT NULL,
	`status` text NOT NULL,
	`provider` text,
	`provider_id` text,
	`segments` integer,
	`duration_seconds` integer,
	`outcome` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `alert_deliveries_event_idx` ON `alert_deliveries` (`event_id`,`user_id`,`channel`);--> statement-breakpoint
CREATE INDEX `alert_deliveries_user_idx` ON `alert_deliveries` (`user_id`,`channel`,`created_at`);--> statement-breakpoint
CREATE INDEX `alert_deliveries_provider_idx` ON `alert_deliveries` (`provider`,`provider_id`);--> statement-breakpoint
CREATE INDEX `alert_deliveries_created_idx` ON `alert_deliveries` (`created_at`);--> statement-breakpoint
CREATE TABLE `alert_settings` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`channels` text NOT NULL,
	`language` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
