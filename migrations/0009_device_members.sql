CREATE TABLE `device_members` (
	`device_id` text NOT NULL,
	`mobile_no` text NOT NULL,
	`role` text NOT NULL,
	`label` text NOT NULL,
	`invited_by_user_id` integer,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`device_id`, `mobile_no`),
	FOREIGN KEY (`device_id`) REFERENCES `devices`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invited_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `device_members_mobile_idx` ON `device_members` (`mobile_no`);--> statement-breakpoint
ALTER TABLE `devices` ADD `linked_at` integer;