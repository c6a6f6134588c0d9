CREATE TABLE `one_time_codes` (
	`purpose` text NOT NULL,
	`mobile_no` text NOT NULL,
	`code_hash` text NOT NULL,
	`tries` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	PRIMARY KEY(`purpose`, `mobile_no`)
);
--> statement-breakpoint
CREATE INDEX `one_time_codes_expires_idx` ON `one_time_codes` (`expires_at`);--> statement-breakpoint
CREATE TABLE `telephony_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`provider` text NOT NULL,
	`replay_key` text NOT NULL,
	`type` text NOT NULL,
	`event` text NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `telephony_events_replay_idx` ON `telephony_events` (`provider`,`replay_key`);--> statement-breakpoint
CREATE INDEX `telephony_events_received_idx` ON `telephony_events` (`received_at`);