-- One pending recharge request per device. Older duplicates (from before this rule) would stop the
-- index from being created: per device only the newest pending request stays pending, the others
-- are marked failed (kept, with the time of this migration as their decision time).
UPDATE `recharge_requests` SET `status` = 'failed', `decided_at` = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
WHERE `status` = 'pending' AND `device_id` IS NOT NULL
  AND `id` NOT IN (SELECT MAX(`id`) FROM `recharge_requests` WHERE `status` = 'pending' AND `device_id` IS NOT NULL GROUP BY `device_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `recharge_requests_one_pending_idx` ON `recharge_requests` (`device_id`) WHERE status = 'pending';
