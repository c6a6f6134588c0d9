ALTER TABLE `devices` ADD `under_voltage` real;--> statement-breakpoint
ALTER TABLE `devices` ADD `over_voltage` real;--> statement-breakpoint
ALTER TABLE `devices` ADD `voltage_unbalance` real;--> statement-breakpoint
ALTER TABLE `motor_config_history` ADD `under_voltage` real;--> statement-breakpoint
ALTER TABLE `motor_config_history` ADD `over_voltage` real;--> statement-breakpoint
ALTER TABLE `motor_config_history` ADD `voltage_unbalance` real;