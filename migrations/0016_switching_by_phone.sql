CREATE TABLE `phone_menu_calls` (
	`provider` text NOT NULL,
	`call_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`device_id` text,
	`language` text NOT NULL,
	`step` text NOT NULL,
	`keys` integer DEFAULT 0 NOT NULL,
	`said` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`provider`, `call_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `phone_menu_calls_created_idx` ON `phone_menu_calls` (`created_at`);--> statement-breakpoint
ALTER TABLE `devices` ADD `start_by_missed_call` integer DEFAULT false NOT NULL;