ALTER TABLE `devices` ADD `region` text;--> statement-breakpoint
CREATE INDEX `devices_region_idx` ON `devices` (`region`);--> statement-breakpoint
ALTER TABLE `installers` ADD `region` text;