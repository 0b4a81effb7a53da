CREATE TABLE `captured_mail` (
	`id` text PRIMARY KEY NOT NULL,
	`to` text NOT NULL,
	`from` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`html` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `clubs` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`name` text NOT NULL,
	`sport` text,
	`country` text,
	`email` text,
	`website` text,
	`logo` text,
	`info` text,
	`public_url` text,
	`site_id` text,
	FOREIGN KEY (`site_id`) REFERENCES `whitelabel_sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `clubs_site` ON `clubs` (`site_id`);--> statement-breakpoint
CREATE TABLE `races` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`club_id` text NOT NULL,
	`site_id` text,
	`name` text NOT NULL,
	`sport` text,
	`start_time` integer NOT NULL,
	`end_time` integer,
	`timezone` text DEFAULT 'UTC' NOT NULL,
	`location` text,
	`visibility` text DEFAULT 'public' NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`site_id`) REFERENCES `whitelabel_sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `races_site_start` ON `races` (`site_id`,`start_time`);--> statement-breakpoint
CREATE INDEX `races_club_start` ON `races` (`club_id`,`start_time`);--> statement-breakpoint
CREATE TABLE `roles` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`user_id` text NOT NULL,
	`type` text NOT NULL,
	`club_id` text,
	`site_id` text,
	`scope` text,
	`config` text DEFAULT '{}' NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`site_id`) REFERENCES `whitelabel_sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `roles_user` ON `roles` (`user_id`);--> statement-breakpoint
CREATE TABLE `whitelabel_sites` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`hostname` text NOT NULL,
	`config` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `whitelabel_sites_hostname` ON `whitelabel_sites` (`hostname`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`phone` text,
	`emoji` text,
	`password_hash` text,
	`password_age_ignore_days_num` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email` ON `users` (`email`);