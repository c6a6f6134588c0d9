CREATE TABLE `box_claims` (
	`device_id` text PRIMARY KEY NOT NULL,
	`code_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`pending_mobile_no` text,
	`pending_by_user_id` integer,
	`used_at` integer,
	FOREIGN KEY (`device_id`) REFERENCES `devices`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `installations` (
	`device_id` text PRIMARY KEY NOT NULL,
	`installer_user_id` integer,
	`installer_name` text NOT NULL,
	`installer_mobile_no` text NOT NULL,
	`farmer_user_id` integer,
	`installed_at` integer NOT NULL,
	`handed_over_at` integer,
	`farmer_seen_at` integer,
	`test_run` text,
	`report` text,
	`feeder` text,
	`commissioned_at` integer,
	FOREIGN KEY (`device_id`) REFERENCES `devices`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`installer_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`farmer_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `installations_installer_idx` ON `installations` (`installer_user_id`);--> statement-breakpoint
CREATE INDEX `installations_feeder_idx` ON `installations` (`feeder`);--> statement-breakpoint
CREATE TABLE `installer_stock` (
	`device_id` text PRIMARY KEY NOT NULL,
	`installer_user_id` integer NOT NULL,
	`assigned_at` integer NOT NULL,
	FOREIGN KEY (`device_id`) REFERENCES `devices`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`installer_user_id`) REFERENCES `installers`(`user_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `installer_stock_installer_idx` ON `installer_stock` (`installer_user_id`);--> statement-breakpoint
CREATE TABLE `installers` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_by_user_id` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
