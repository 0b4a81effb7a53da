ALTER TABLE `waitlist_entries` ADD `change_individual_id` text;--> statement-breakpoint
ALTER TABLE `waitlist_entries` ADD `change_cart_id` text;--> statement-breakpoint
CREATE INDEX `waitlist_change_person` ON `waitlist_entries` (`change_individual_id`);--> statement-breakpoint
-- The same address may wait for the same thing once per person: a new entry, and a change for each paid person of the cart.
DROP INDEX `waitlist_one_per_wish`;--> statement-breakpoint
CREATE UNIQUE INDEX `waitlist_one_per_wish` ON `waitlist_entries` (`registration_id`, `email`, `pools`, COALESCE(`change_individual_id`, '')) WHERE `state` IN ('waiting', 'offered');
