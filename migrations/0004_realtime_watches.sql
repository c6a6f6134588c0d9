CREATE TABLE `realtime_watches` (
	`session_id` text NOT NULL,
	`device_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`audience` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`session_id`, `device_id`)
);
--> statement-breakpoint
CREATE INDEX `realtime_watches_user_idx` ON `realtime_watches` (`user_id`);