CREATE TABLE `retention_cursors` (
	`name` text PRIMARY KEY NOT NULL,
	`position` text NOT NULL
);
