CREATE TABLE `admin_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_at` integer NOT NULL,
	`admin_user_id` integer,
	`admin_mobile_no` text,
	`action` text NOT NULL,
	`target` text,
	`status` integer NOT NULL,
	`details` text NOT NULL,
	`client_ip` text,
	`user_agent` text
);
--> statement-breakpoint
CREATE INDEX `admin_audit_admin_idx` ON `admin_audit` (`admin_user_id`,`id`);--> statement-breakpoint
CREATE INDEX `admin_audit_target_idx` ON `admin_audit` (`target`,`id`);