CREATE TABLE `firmware_images` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`device_type` text NOT NULL,
	`version` text NOT NULL,
	`sha256` text NOT NULL,
	`size` integer NOT NULL,
	`r2_key` text NOT NULL,
	`uploaded_by_user_id` integer,
	`uploaded_at` integer NOT NULL,
	FOREIGN KEY (`uploaded_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `firmware_images_type_version_idx` ON `firmware_images` (`device_type`,`version`);--> statement-breakpoint
ALTER TABLE `devices` ADD `connection` text;