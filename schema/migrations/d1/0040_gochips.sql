CREATE TABLE `gochip_lots` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`depot_id` text NOT NULL,
	`lot_number` text NOT NULL,
	`received_on` text,
	`chip_count` integer DEFAULT 0 NOT NULL,
	`notes` text,
	FOREIGN KEY (`depot_id`) REFERENCES `shipping_depots`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gochip_lots_depot_number` ON `gochip_lots` (`depot_id`,`lot_number`);--> statement-breakpoint
CREATE TABLE `gochip_racks` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`depot_id` text NOT NULL,
	`number` text NOT NULL,
	`slot_count` integer DEFAULT 100 NOT NULL,
	`shipment_id` text,
	`notes` text,
	FOREIGN KEY (`depot_id`) REFERENCES `shipping_depots`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gochip_racks_depot_number` ON `gochip_racks` (`depot_id`,`number`);--> statement-breakpoint
CREATE INDEX `gochip_racks_shipment` ON `gochip_racks` (`shipment_id`);--> statement-breakpoint
CREATE TABLE `gochip_replacements` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`club_id` text NOT NULL,
	`race_id` text NOT NULL,
	`racer_id` text NOT NULL,
	`old_chip` text,
	`new_chip` text NOT NULL,
	`reason` text NOT NULL,
	`depot_id` text,
	`user_id` text NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`race_id`) REFERENCES `races`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`depot_id`) REFERENCES `shipping_depots`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `gochip_replacements_race` ON `gochip_replacements` (`race_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `gochip_replacements_club` ON `gochip_replacements` (`club_id`);--> statement-breakpoint
CREATE TABLE `gochip_tests` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`depot_id` text NOT NULL,
	`rack_id` text,
	`activator` text,
	`user_id` text NOT NULL,
	`answered` text DEFAULT '[]' NOT NULL,
	`silent` text DEFAULT '[]' NOT NULL,
	`unknown` text DEFAULT '[]' NOT NULL,
	FOREIGN KEY (`depot_id`) REFERENCES `shipping_depots`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`rack_id`) REFERENCES `gochip_racks`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `gochip_tests_depot` ON `gochip_tests` (`depot_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `gochips` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`depot_id` text NOT NULL,
	`hex_code` text NOT NULL,
	`lot_id` text,
	`rack_id` text,
	`slot` integer,
	`status` text DEFAULT 'untested' NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`last_tested_at` integer,
	FOREIGN KEY (`depot_id`) REFERENCES `shipping_depots`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`lot_id`) REFERENCES `gochip_lots`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`rack_id`) REFERENCES `gochip_racks`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gochips_depot_hex` ON `gochips` (`depot_id`,`hex_code`);--> statement-breakpoint
CREATE UNIQUE INDEX `gochips_rack_slot` ON `gochips` (`rack_id`,`slot`) WHERE rack_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `gochips_lot` ON `gochips` (`lot_id`);