CREATE INDEX `realtime_watches_expires_idx` ON `realtime_watches` (`expires_at`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);