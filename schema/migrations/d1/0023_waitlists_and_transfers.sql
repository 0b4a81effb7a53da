CREATE TABLE `waitlist_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`registration_id` text NOT NULL,
	`club_id` text NOT NULL,
	`pools` text NOT NULL,
	`position` real NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`lang` text DEFAULT 'en' NOT NULL,
	`values` text NOT NULL,
	`submission_key` text NOT NULL,
	`state` text DEFAULT 'waiting' NOT NULL,
	`offer_cart_id` text,
	`offered_at` integer,
	`offer_expires_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`registration_id`) REFERENCES `registrations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `waitlist_submission` ON `waitlist_entries` (`registration_id`,`submission_key`);--> statement-breakpoint
CREATE INDEX `waitlist_queue` ON `waitlist_entries` (`registration_id`,`state`,`position`);--> statement-breakpoint
CREATE INDEX `waitlist_offer_cart` ON `waitlist_entries` (`offer_cart_id`);--> statement-breakpoint
ALTER TABLE `registrations` ADD `waitlist_offer_hours` integer;--> statement-breakpoint
ALTER TABLE `registrations` ADD `transfer_fee` integer;--> statement-breakpoint
ALTER TABLE `payment_attempts` ADD `change` text;--> statement-breakpoint
-- One place in the queue per address and wish: joining again while waiting or offered is the entry already there.
CREATE UNIQUE INDEX `waitlist_one_per_wish` ON `waitlist_entries` (`registration_id`, `email`, `pools`) WHERE `state` IN ('waiting', 'offered');
