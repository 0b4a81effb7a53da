ALTER TABLE `clubs` ADD `stripe_account_claim` text;--> statement-breakpoint
ALTER TABLE `clubs` ADD `stripe_charges_enabled` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `clubs` ADD `stripe_payouts_enabled` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `clubs` ADD `stripe_details_submitted` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `clubs` ADD `stripe_requirements` text;--> statement-breakpoint
ALTER TABLE `clubs` ADD `stripe_status_at` integer;--> statement-breakpoint
CREATE INDEX `clubs_stripe_account` ON `clubs` (`stripe_account_id`);--> statement-breakpoint
-- A club that already had a connected account took cards before charges_enabled was recorded: it keeps taking them.
UPDATE `clubs` SET `stripe_charges_enabled` = 1 WHERE `stripe_account_id` IS NOT NULL;
