CREATE TABLE `cities` (
	`geoname` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`ascii_name` text NOT NULL,
	`country_iso` text NOT NULL,
	`province_iso` text,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL,
	`timezone` text NOT NULL,
	`population` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `cities_ascii_name` ON `cities` (`ascii_name`);