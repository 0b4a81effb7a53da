ALTER TABLE `oauth_codes` ADD `family_id` text;--> statement-breakpoint
ALTER TABLE `oauth_tokens` ADD `family_id` text;--> statement-breakpoint
CREATE INDEX `oauth_tokens_family` ON `oauth_tokens` (`family_id`);