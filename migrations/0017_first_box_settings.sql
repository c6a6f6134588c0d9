CREATE TABLE `first_box_settings` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`default_current` real NOT NULL,
	`dry_run_threshold` real NOT NULL,
	`over_current_threshold` real NOT NULL,
	`changed_by_user_id` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`changed_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
