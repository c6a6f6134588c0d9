-- Every push subscription belongs to the session that saved it and ends with it (logout, a
-- password change, expiry). SQLite cannot add a required column with a foreign key to a table
-- with rows, so the table is made again. A subscription saved before this had no session: it
-- goes to the newest live farmer session of its account (the phone that saved it was most
-- likely the last to log in), and to nobody if the account has none, and is then deleted; and
-- an account keeps its 10 newest, as it would from now on.
CREATE TABLE `__new_push_subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`session_id` text NOT NULL,
	`endpoint` text NOT NULL,
	`p256dh` text NOT NULL,
	`auth` text NOT NULL,
	`language` text NOT NULL,
	`kinds` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`last_sent_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_push_subscriptions`
  (`id`, `user_id`, `session_id`, `endpoint`, `p256dh`, `auth`, `language`, `kinds`, `created_at`, `updated_at`, `last_sent_at`)
SELECT `id`, `user_id`, `session_id`, `endpoint`, `p256dh`, `auth`, `language`, `kinds`, `created_at`, `updated_at`, `last_sent_at`
FROM (
  SELECT `p`.*, (
    SELECT `s`.`id` FROM `sessions` `s`
    WHERE `s`.`user_id` = `p`.`user_id` AND `s`.`audience` = 'user' AND `s`.`revoked_at` IS NULL
      AND `s`.`expires_at` > CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    ORDER BY `s`.`created_at` DESC, `s`.`id`
    LIMIT 1
  ) AS `session_id`
  FROM `push_subscriptions` `p`
)
WHERE `session_id` IS NOT NULL;
--> statement-breakpoint
DROP TABLE `push_subscriptions`;--> statement-breakpoint
ALTER TABLE `__new_push_subscriptions` RENAME TO `push_subscriptions`;--> statement-breakpoint
DELETE FROM `push_subscriptions` WHERE `id` NOT IN (
  SELECT `newest`.`id` FROM `push_subscriptions` `newest`
  WHERE `newest`.`user_id` = `push_subscriptions`.`user_id`
  ORDER BY `newest`.`updated_at` DESC, `newest`.`id` DESC
  LIMIT 10
);--> statement-breakpoint
CREATE UNIQUE INDEX `push_subscriptions_endpoint_unique` ON `push_subscriptions` (`endpoint`);--> statement-breakpoint
CREATE INDEX `push_subscriptions_user_idx` ON `push_subscriptions` (`user_id`);--> statement-breakpoint
CREATE INDEX `push_subscriptions_session_idx` ON `push_subscriptions` (`session_id`);
