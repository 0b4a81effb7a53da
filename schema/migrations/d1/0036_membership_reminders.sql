CREATE TABLE `membership_reminders` (
	`id` text PRIMARY KEY NOT NULL,
	`member_id` text NOT NULL,
	`division_id` text NOT NULL,
	`email` text NOT NULL,
	`lang` text DEFAULT 'en' NOT NULL,
	`state` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`member_id`) REFERENCES `division_members`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`division_id`) REFERENCES `divisions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `membership_reminders_member` ON `membership_reminders` (`member_id`);--> statement-breakpoint
CREATE INDEX `membership_reminders_division` ON `membership_reminders` (`division_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `divisions` ADD `is_reminding` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `divisions` ADD `reminder_days` integer DEFAULT 30 NOT NULL;