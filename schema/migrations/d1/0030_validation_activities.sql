CREATE TABLE `activity_tags` (
	`subject_kind` text NOT NULL,
	`subject_id` text NOT NULL,
	`activity_id` text NOT NULL,
	`club_id` text NOT NULL,
	PRIMARY KEY(`subject_kind`, `subject_id`, `activity_id`),
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `activity_tags_activity` ON `activity_tags` (`activity_id`,`subject_kind`);--> statement-breakpoint
CREATE TABLE `csv_files` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`user_id` text,
	`validation_system_id` text NOT NULL,
	`filename` text NOT NULL,
	`uploaded_time` integer NOT NULL,
	`column_list` text NOT NULL,
	`number_column` text NOT NULL,
	`number_count` integer NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`validation_system_id`) REFERENCES `validation_systems`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `csv_files_system` ON `csv_files` (`validation_system_id`,`uploaded_time`);--> statement-breakpoint
CREATE INDEX `csv_files_club` ON `csv_files` (`club_id`);--> statement-breakpoint
CREATE TABLE `validation_numbers` (
	`validation_system_id` text NOT NULL,
	`number` text NOT NULL,
	PRIMARY KEY(`validation_system_id`, `number`),
	FOREIGN KEY (`validation_system_id`) REFERENCES `validation_systems`(`id`) ON UPDATE no action ON DELETE cascade
);
