CREATE TABLE `points_series_race_entries` (
	`series_id` text NOT NULL,
	`race_id` text NOT NULL,
	`club_id` text NOT NULL,
	`source_key` text NOT NULL,
	`entries` text NOT NULL,
	`computed_at` integer NOT NULL,
	PRIMARY KEY(`series_id`, `race_id`),
	FOREIGN KEY (`series_id`) REFERENCES `points_series`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `ranking_schemes` ADD `is_public` integer DEFAULT false NOT NULL;