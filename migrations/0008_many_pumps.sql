DROP INDEX `devices_owner_idx`;--> statement-breakpoint
ALTER TABLE `devices` ADD `name` text;--> statement-breakpoint
ALTER TABLE `devices` ADD `default_current` real DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `devices` ADD `dry_run_threshold` real DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE `devices` ADD `over_current_threshold` real DEFAULT 30 NOT NULL;--> statement-breakpoint
CREATE INDEX `devices_owner_idx` ON `devices` (`owner_user_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `motor_config_history` ADD `device_id` text;--> statement-breakpoint
CREATE INDEX `motor_config_history_device_idx` ON `motor_config_history` (`device_id`,`created_at`);--> statement-breakpoint
-- Motor settings move from the account to each box: every box keeps what its owner had set,
-- and the history entries of an account with a box are that box's (one box per account until
-- now, so there is no doubt which).
UPDATE `devices` SET
  `default_current` = (SELECT `u`.`default_current` FROM `users` `u` WHERE `u`.`id` = `devices`.`owner_user_id`),
  `dry_run_threshold` = (SELECT `u`.`dry_run_threshold` FROM `users` `u` WHERE `u`.`id` = `devices`.`owner_user_id`),
  `over_current_threshold` = (SELECT `u`.`over_current_threshold` FROM `users` `u` WHERE `u`.`id` = `devices`.`owner_user_id`)
WHERE `owner_user_id` IS NOT NULL;--> statement-breakpoint
UPDATE `motor_config_history` SET
  `device_id` = (SELECT `d`.`id` FROM `devices` `d` WHERE `d`.`owner_user_id` = `motor_config_history`.`user_id`);--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `default_current`;--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `dry_run_threshold`;--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `over_current_threshold`;