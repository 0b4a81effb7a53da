CREATE TABLE `pass_checks` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`pass_id` text,
	`user_id` text NOT NULL,
	`result` text NOT NULL,
	`checked_at` integer NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `pass_checks_pass` ON `pass_checks` (`pass_id`,`checked_at`);--> statement-breakpoint
CREATE INDEX `pass_checks_club` ON `pass_checks` (`club_id`,`checked_at`);--> statement-breakpoint
CREATE TABLE `pass_counters` (
	`club_id` text PRIMARY KEY NOT NULL,
	`last_number` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
DROP INDEX `passes_club`;--> statement-breakpoint
ALTER TABLE `passes` ADD `revoke_reason` text;--> statement-breakpoint
ALTER TABLE `passes` ADD `source` text;--> statement-breakpoint
CREATE UNIQUE INDEX `passes_club_number` ON `passes` (`club_id`,`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `passes_club_source` ON `passes` (`club_id`,`source`);--> statement-breakpoint
ALTER TABLE `registrations` ADD `pass_season` text;--> statement-breakpoint
ALTER TABLE `registrations` ADD `pass_valid_from` text;--> statement-breakpoint
ALTER TABLE `registrations` ADD `pass_valid_until` text;