CREATE TABLE `points_series_standings` (
	`series_id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`source_key` text NOT NULL,
	`standings` text NOT NULL,
	`computed_at` integer NOT NULL,
	FOREIGN KEY (`series_id`) REFERENCES `points_series`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action
);
