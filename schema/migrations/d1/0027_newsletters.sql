CREATE TABLE `newsletter_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`newsletter_id` text NOT NULL,
	`email` text NOT NULL,
	`state` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`newsletter_id`) REFERENCES `email_newsletters`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `newsletter_deliveries_address` ON `newsletter_deliveries` (`newsletter_id`,`email`);--> statement-breakpoint
CREATE INDEX `newsletter_deliveries_state` ON `newsletter_deliveries` (`newsletter_id`,`state`);--> statement-breakpoint
CREATE TABLE `newsletter_unsubscribes` (
	`club_id` text NOT NULL,
	`email` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`club_id`, `email`),
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `email_newsletters` ADD `audience` text DEFAULT '{"members":false,"registrations":[]}' NOT NULL;--> statement-breakpoint
ALTER TABLE `email_newsletters` ADD `dispatched_time` integer;--> statement-breakpoint
CREATE INDEX `email_newsletters_due` ON `email_newsletters` (`dispatched_time`,`sent_time`);