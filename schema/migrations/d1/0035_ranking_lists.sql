CREATE TABLE `ranking_lists` (
	`scheme_id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`source_key` text NOT NULL,
	`lists` text NOT NULL,
	`computed_at` integer NOT NULL,
	FOREIGN KEY (`scheme_id`) REFERENCES `ranking_schemes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action
);
