CREATE TABLE `devices` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_user_id` integer,
	`kind` text NOT NULL,
	`key_hash` text NOT NULL,
	`signal` integer,
	`imei` text,
	`sim` text,
	`chip_id` text,
	`firmware` text,
	`online` integer DEFAULT false NOT NULL,
	`last_seen_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`owner_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `devices_owner_idx` ON `devices` (`owner_user_id`);--> statement-breakpoint
CREATE TABLE `motor_config_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`default_current` real NOT NULL,
	`dry_run_threshold` real NOT NULL,
	`over_current_threshold` real NOT NULL,
	`change_note` text NOT NULL,
	`changed_by_user_id` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`changed_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `motor_config_history_user_idx` ON `motor_config_history` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `motor_logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`device_id` text NOT NULL,
	`user_id` integer,
	`mobile_no` text,
	`action` text NOT NULL,
	`message` text NOT NULL,
	`created_at` integer NOT NULL,
	`hub_ref` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `motor_logs_hub_ref_unique` ON `motor_logs` (`hub_ref`);--> statement-breakpoint
CREATE INDEX `motor_logs_device_created_idx` ON `motor_logs` (`device_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `motor_logs_created_idx` ON `motor_logs` (`created_at`);--> statement-breakpoint
CREATE TABLE `recharge_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`device_id` text,
	`mobile_no` text NOT NULL,
	`plan` text NOT NULL,
	`amount` integer NOT NULL,
	`payment_method` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`requested_at` integer NOT NULL,
	`decided_at` integer,
	`decided_by_user_id` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`decided_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `recharge_requests_status_idx` ON `recharge_requests` (`status`,`requested_at`);--> statement-breakpoint
CREATE INDEX `recharge_requests_user_idx` ON `recharge_requests` (`user_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`audience` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`mobile_no` text NOT NULL,
	`password_hash` text NOT NULL,
	`is_admin` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`last_login` integer,
	`default_current` real DEFAULT 1 NOT NULL,
	`dry_run_threshold` real DEFAULT 30 NOT NULL,
	`over_current_threshold` real DEFAULT 30 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_mobile_no_unique` ON `users` (`mobile_no`);