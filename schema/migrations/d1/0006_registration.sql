CREATE TABLE `carts` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`registration_id` text NOT NULL,
	`club_id` text NOT NULL,
	`site_id` text,
	`email` text,
	`is_removed` integer DEFAULT false NOT NULL,
	`is_complete` integer DEFAULT false NOT NULL,
	`cart_number` integer,
	`legacy_id` integer,
	`origin` text DEFAULT 'web' NOT NULL,
	`values` text DEFAULT '{}' NOT NULL,
	`discount_codes` text DEFAULT '' NOT NULL,
	`resume_hash` text,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`registration_id`) REFERENCES `registrations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `carts_registration` ON `carts` (`registration_id`,`is_complete`);--> statement-breakpoint
CREATE UNIQUE INDEX `carts_number` ON `carts` (`registration_id`,`cart_number`);--> statement-breakpoint
CREATE TABLE `individuals` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`cart_id` text NOT NULL,
	`registration_id` text NOT NULL,
	`club_id` text NOT NULL,
	`site_id` text,
	`is_removed` integer DEFAULT false NOT NULL,
	`is_complete` integer DEFAULT false NOT NULL,
	`person` text,
	`ordinal` integer DEFAULT 0 NOT NULL,
	`values` text DEFAULT '{}' NOT NULL,
	`paid_at` integer,
	FOREIGN KEY (`cart_id`) REFERENCES `carts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `individuals_cart` ON `individuals` (`cart_id`,`ordinal`);--> statement-breakpoint
CREATE INDEX `individuals_registration` ON `individuals` (`registration_id`);--> statement-breakpoint
ALTER TABLE `clubs` ADD `is_stripe` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `form_elements` ADD `is_admin_mandatory` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `form_elements` ADD `is_edit_forbidden` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `form_elements` ADD `config` text DEFAULT '{}' NOT NULL;