CREATE TABLE `form_elements` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`registration_id` text NOT NULL,
	`club_id` text NOT NULL,
	`site_id` text,
	`type` text NOT NULL,
	`caption` text DEFAULT '' NOT NULL,
	`title` text,
	`column_header` text,
	`price_1` integer,
	`price_2` integer,
	`price_3` integer,
	`is_taxable` integer DEFAULT false NOT NULL,
	`is_mandatory` integer DEFAULT false NOT NULL,
	`is_admin_only` integer DEFAULT false NOT NULL,
	`is_kiosk_mode` integer DEFAULT false NOT NULL,
	`condition_element` text,
	`condition_operator` text,
	`condition_value` text,
	`logic_key` text,
	`ordinal` integer DEFAULT 0 NOT NULL,
	`quantity_limit` integer,
	`all_discount` integer DEFAULT false NOT NULL,
	`member_class` text,
	`is_fee` integer DEFAULT false NOT NULL,
	`options_list` text DEFAULT '[]' NOT NULL,
	`display_type` text,
	FOREIGN KEY (`registration_id`) REFERENCES `registrations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `form_elements_registration` ON `form_elements` (`registration_id`,`ordinal`);--> statement-breakpoint
CREATE TABLE `registrations` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`club_id` text NOT NULL,
	`site_id` text,
	`name` text NOT NULL,
	`is_approved` integer DEFAULT false NOT NULL,
	`is_pending` integer DEFAULT false NOT NULL,
	`approval_status` text DEFAULT '' NOT NULL,
	`open_time` integer,
	`close_time` integer,
	`is_all_events` integer DEFAULT false NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`first_name_field_id` text,
	`last_name_field_id` text,
	`people_labels` text DEFAULT '{}' NOT NULL,
	`age_calc_date` text,
	`raise_price_1_time` integer,
	`raise_price_2_time` integer,
	`raise_price_3_time` integer,
	`gst_rate` real DEFAULT 0 NOT NULL,
	`is_bilingual` integer DEFAULT false NOT NULL,
	`event` text,
	`sport` text,
	`legacy_id` integer,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`site_id`) REFERENCES `whitelabel_sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `registrations_club` ON `registrations` (`club_id`);--> statement-breakpoint
CREATE INDEX `registrations_site` ON `registrations` (`site_id`);--> statement-breakpoint
ALTER TABLE `clubs` ADD `city_name` text;--> statement-breakpoint
ALTER TABLE `clubs` ADD `timezone` text;--> statement-breakpoint
ALTER TABLE `clubs` ADD `geoname` integer;--> statement-breakpoint
ALTER TABLE `clubs` ADD `latitude` real;--> statement-breakpoint
ALTER TABLE `clubs` ADD `longitude` real;--> statement-breakpoint
ALTER TABLE `clubs` ADD `province_iso` text;--> statement-breakpoint
ALTER TABLE `clubs` ADD `country_iso` text;--> statement-breakpoint
ALTER TABLE `api_applications` ADD `club_id` text REFERENCES clubs(id);