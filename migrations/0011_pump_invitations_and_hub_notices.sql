-- A membership is an invitation until the invited number accepts it (accepted_at), and every
-- change of who may use a box leaves a notice for its hub until the hub confirms it (hub_notices).
CREATE TABLE `hub_notices` (
	`device_id` text PRIMARY KEY NOT NULL,
	`asked_at` integer NOT NULL,
	`version` integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE `device_members` ADD `accepted_at` integer;--> statement-breakpoint
-- The people owners added before invitations needed an answer keep the access they had.
UPDATE `device_members` SET `accepted_at` = `created_at`;
