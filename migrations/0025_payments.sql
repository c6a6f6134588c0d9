CREATE TABLE `payment_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`provider` text NOT NULL,
	`event_id` text NOT NULL,
	`type` text NOT NULL,
	`payment_row_id` integer,
	`gateway_payment_id` text,
	`outcome` text NOT NULL,
	`body` text NOT NULL,
	`received_at` integer NOT NULL,
	FOREIGN KEY (`payment_row_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_events_event_idx` ON `payment_events` (`provider`,`event_id`);--> statement-breakpoint
CREATE INDEX `payment_events_payment_idx` ON `payment_events` (`payment_row_id`);--> statement-breakpoint
CREATE TABLE `payment_recon_flags` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`day` text NOT NULL,
	`kind` text NOT NULL,
	`gateway_ref` text NOT NULL,
	`payment_row_id` integer,
	`detail` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`payment_row_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_recon_flags_ref_idx` ON `payment_recon_flags` (`kind`,`gateway_ref`);--> statement-breakpoint
CREATE TABLE `payment_recon_runs` (
	`day` text PRIMARY KEY NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`items` integer,
	`flagged` integer
);
--> statement-breakpoint
CREATE TABLE `payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`device_id` text NOT NULL,
	`mobile_no` text NOT NULL,
	`plan` text NOT NULL,
	`language` text NOT NULL,
	`amount_paise` integer NOT NULL,
	`taxable_paise` integer NOT NULL,
	`cgst_paise` integer NOT NULL,
	`sgst_paise` integer NOT NULL,
	`provider` text NOT NULL,
	`status` text NOT NULL,
	`gateway_link_id` text NOT NULL,
	`gateway_order_id` text,
	`gateway_payment_id` text,
	`pay_url` text NOT NULL,
	`captured_paise` integer,
	`refunded_paise` integer DEFAULT 0 NOT NULL,
	`flag` text,
	`created_at` integer NOT NULL,
	`paid_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_gateway_link_id_unique` ON `payments` (`gateway_link_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_gateway_order_id_unique` ON `payments` (`gateway_order_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_gateway_payment_id_unique` ON `payments` (`gateway_payment_id`);--> statement-breakpoint
CREATE INDEX `payments_user_idx` ON `payments` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `payments_status_idx` ON `payments` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `plan_reminders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`device_id` text NOT NULL,
	`ends_at` integer NOT NULL,
	`kind` text NOT NULL,
	`sent_at` integer NOT NULL,
	FOREIGN KEY (`device_id`) REFERENCES `devices`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `plan_reminders_once_idx` ON `plan_reminders` (`device_id`,`ends_at`,`kind`);--> statement-breakpoint
ALTER TABLE `plan_periods` ADD `payment_id` integer REFERENCES payments(id);--> statement-breakpoint
CREATE INDEX `plan_periods_ends_idx` ON `plan_periods` (`ends_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `plan_periods_payment_id_unique` ON `plan_periods` (`payment_id`);