CREATE TABLE `pass_mails` (
	`id` text PRIMARY KEY NOT NULL,
	`pass_id` text NOT NULL,
	`club_id` text NOT NULL,
	`email` text NOT NULL,
	`lang` text DEFAULT 'en' NOT NULL,
	`state` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`pass_id`) REFERENCES `passes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `pass_mails_pass` ON `pass_mails` (`pass_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `pass_mails_state` ON `pass_mails` (`state`,`updated_at`);--> statement-breakpoint
ALTER TABLE `passes` ADD `lang` text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE `division_people` ADD `lang` text DEFAULT 'en' NOT NULL;