CREATE TABLE `activities` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`club_id` text,
	`site_id` text,
	`name` text NOT NULL,
	`sport` text,
	`description` text,
	`is_active` integer DEFAULT true NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`site_id`) REFERENCES `whitelabel_sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `activities_club` ON `activities` (`club_id`);--> statement-breakpoint
CREATE INDEX `activities_site` ON `activities` (`site_id`);--> statement-breakpoint
CREATE TABLE `divisions` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`club_id` text NOT NULL,
	`site_id` text,
	`name` text NOT NULL,
	`sport` text,
	`country` text,
	`email` text,
	`website` text,
	`logo` text,
	`info` text,
	`programs_list` text DEFAULT '[]' NOT NULL,
	`nqc_expire_time` integer,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`site_id`) REFERENCES `whitelabel_sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `divisions_club` ON `divisions` (`club_id`);--> statement-breakpoint
CREATE INDEX `divisions_site` ON `divisions` (`site_id`);--> statement-breakpoint
CREATE TABLE `email_newsletters` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`club_id` text NOT NULL,
	`site_id` text,
	`subject` text NOT NULL,
	`communication_type` text DEFAULT 'newsletter' NOT NULL,
	`elements` text DEFAULT '[]' NOT NULL,
	`sent_time` integer,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`site_id`) REFERENCES `whitelabel_sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `email_newsletters_club` ON `email_newsletters` (`club_id`);--> statement-breakpoint
CREATE INDEX `email_newsletters_site` ON `email_newsletters` (`site_id`);--> statement-breakpoint
CREATE TABLE `event_pages` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`club_id` text NOT NULL,
	`site_id` text,
	`name` text NOT NULL,
	`title` text,
	`year` integer,
	`start_date` text,
	`end_date` text,
	`page_url` text,
	`description` text,
	`sport` text,
	`banner_url` text,
	`header_option` text DEFAULT 'banner' NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`site_id`) REFERENCES `whitelabel_sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `event_pages_club` ON `event_pages` (`club_id`);--> statement-breakpoint
CREATE INDEX `event_pages_site` ON `event_pages` (`site_id`);--> statement-breakpoint
CREATE TABLE `inventory_items` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`depot_id` text NOT NULL,
	`type_id` text NOT NULL,
	`name` text,
	`number` text,
	FOREIGN KEY (`depot_id`) REFERENCES `shipping_depots`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`type_id`) REFERENCES `inventory_types`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `inventory_items_depot` ON `inventory_items` (`depot_id`);--> statement-breakpoint
CREATE INDEX `inventory_items_type` ON `inventory_items` (`type_id`);--> statement-breakpoint
CREATE TABLE `inventory_types` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`image` text,
	`description` text,
	`unit_cost` integer DEFAULT 0 NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`sw_version` text,
	`hw_version` text,
	`is_rentable` integer DEFAULT false NOT NULL,
	`is_tracked` integer DEFAULT false NOT NULL,
	`hts` text,
	`origin` text,
	`weight` real,
	`declared_value` integer,
	`category` text,
	`purchase_price` integer,
	`tags` text DEFAULT '[]' NOT NULL,
	`included` text DEFAULT '[]' NOT NULL,
	`auto_pack_key` text,
	`packing_instructions` text,
	`ordinal` integer DEFAULT 0 NOT NULL,
	`fields` text DEFAULT '[]' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `inventory_types_key` ON `inventory_types` (`key`);--> statement-breakpoint
CREATE TABLE `passes` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`club_id` text NOT NULL,
	`site_id` text,
	`kind` text DEFAULT 'pass' NOT NULL,
	`holder_name` text NOT NULL,
	`holder_email` text,
	`season` text,
	`number` text,
	`valid_from` text,
	`valid_until` text,
	`revoked_time` integer,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`site_id`) REFERENCES `whitelabel_sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `passes_club` ON `passes` (`club_id`,`number`);--> statement-breakpoint
CREATE INDEX `passes_site` ON `passes` (`site_id`);--> statement-breakpoint
CREATE TABLE `points_series` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`club_id` text NOT NULL,
	`site_id` text,
	`name` text NOT NULL,
	`year` integer,
	`config` text DEFAULT '{}' NOT NULL,
	`is_public` integer DEFAULT false NOT NULL,
	`url` text,
	`last_points_file` text,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`site_id`) REFERENCES `whitelabel_sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `points_series_club` ON `points_series` (`club_id`);--> statement-breakpoint
CREATE INDEX `points_series_site` ON `points_series` (`site_id`);--> statement-breakpoint
CREATE TABLE `points_systems` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`club_id` text,
	`site_id` text,
	`name` text NOT NULL,
	`method` text NOT NULL,
	`points_table` text DEFAULT '[]' NOT NULL,
	`formula` text,
	`best_of` integer,
	`ties` text DEFAULT 'share' NOT NULL,
	`scale_per_race` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`site_id`) REFERENCES `whitelabel_sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `points_systems_club` ON `points_systems` (`club_id`);--> statement-breakpoint
CREATE INDEX `points_systems_site` ON `points_systems` (`site_id`);--> statement-breakpoint
CREATE TABLE `ranking_schemes` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`club_id` text NOT NULL,
	`site_id` text,
	`name` text NOT NULL,
	`sport` text,
	`season` text,
	`method` text NOT NULL,
	`config` text DEFAULT '{}' NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`site_id`) REFERENCES `whitelabel_sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `ranking_schemes_club` ON `ranking_schemes` (`club_id`);--> statement-breakpoint
CREATE INDEX `ranking_schemes_site` ON `ranking_schemes` (`site_id`);--> statement-breakpoint
CREATE TABLE `serverboxes` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`club_id` text NOT NULL,
	`site_id` text,
	`name` text NOT NULL,
	`subtype` text DEFAULT 'serverbox' NOT NULL,
	`serial` text,
	`software_version` text,
	`last_seen_time` integer,
	`is_active` integer DEFAULT true NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`site_id`) REFERENCES `whitelabel_sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `serverboxes_club` ON `serverboxes` (`club_id`);--> statement-breakpoint
CREATE INDEX `serverboxes_site` ON `serverboxes` (`site_id`);--> statement-breakpoint
CREATE TABLE `shipping_depots` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`address` text,
	`country` text,
	`is_active` integer DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE `site_pages` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`site_id` text NOT NULL,
	`club_id` text,
	`title` text NOT NULL,
	`path` text NOT NULL,
	`body` text DEFAULT '' NOT NULL,
	`is_published` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `whitelabel_sites`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `site_pages_site_path` ON `site_pages` (`site_id`,`path`);--> statement-breakpoint
CREATE INDEX `site_pages_club` ON `site_pages` (`club_id`);--> statement-breakpoint
CREATE TABLE `timing_devices` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`club_id` text NOT NULL,
	`site_id` text,
	`name` text,
	`humanname` text,
	`device_type` text NOT NULL,
	`device_number` integer,
	`serial` text,
	`accuracy` real DEFAULT 0.5 NOT NULL,
	`precision` integer DEFAULT 0 NOT NULL,
	`channels` integer DEFAULT 1 NOT NULL,
	`notes` text,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`site_id`) REFERENCES `whitelabel_sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `timing_devices_club` ON `timing_devices` (`club_id`);--> statement-breakpoint
CREATE INDEX `timing_devices_site` ON `timing_devices` (`site_id`);--> statement-breakpoint
CREATE TABLE `validation_systems` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`club_id` text NOT NULL,
	`site_id` text,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`pattern` text,
	`description` text,
	`is_active` integer DEFAULT true NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`site_id`) REFERENCES `whitelabel_sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `validation_systems_club` ON `validation_systems` (`club_id`);--> statement-breakpoint
CREATE INDEX `validation_systems_site` ON `validation_systems` (`site_id`);