CREATE TABLE `depot_stock` (
	`depot_id` text NOT NULL,
	`type_id` text NOT NULL,
	`on_hand` integer DEFAULT 0 NOT NULL,
	`out` integer DEFAULT 0 NOT NULL,
	`missing` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`depot_id`, `type_id`),
	FOREIGN KEY (`depot_id`) REFERENCES `shipping_depots`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`type_id`) REFERENCES `inventory_types`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "depot_stock_not_negative" CHECK("depot_stock"."on_hand" >= 0 AND "depot_stock"."out" >= 0 AND "depot_stock"."missing" >= 0)
);
--> statement-breakpoint
CREATE TABLE `shipment_counts` (
	`shipment_id` text NOT NULL,
	`type_id` text NOT NULL,
	`sent` integer NOT NULL,
	`is_rentable` integer NOT NULL,
	`back` integer,
	`missing` integer,
	PRIMARY KEY(`shipment_id`, `type_id`),
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`type_id`) REFERENCES `inventory_types`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `shipment_items` (
	`shipment_id` text NOT NULL,
	`item_id` text NOT NULL,
	`type_id` text NOT NULL,
	`state` text DEFAULT 'packed' NOT NULL,
	`packed_at` integer NOT NULL,
	`returned_at` integer,
	PRIMARY KEY(`shipment_id`, `item_id`),
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`item_id`) REFERENCES `inventory_items`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`type_id`) REFERENCES `inventory_types`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shipment_items_item_held` ON `shipment_items` (`item_id`) WHERE state IN ('packed', 'out');--> statement-breakpoint
CREATE TABLE `shipment_requests` (
	`shipment_id` text NOT NULL,
	`type_id` text NOT NULL,
	`quantity` integer NOT NULL,
	PRIMARY KEY(`shipment_id`, `type_id`),
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`type_id`) REFERENCES `inventory_types`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `shipments` (
	`id` text PRIMARY KEY NOT NULL,
	`depot_id` text NOT NULL,
	`state` text DEFAULT 'draft' NOT NULL,
	`race_id` text,
	`club_id` text,
	`destination` text NOT NULL,
	`address` text,
	`contact_name` text,
	`contact_email` text,
	`contact_phone` text,
	`ship_by` text,
	`use_from` text,
	`return_by` text,
	`notes` text,
	`step_token` text DEFAULT '' NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`shipped_at` integer,
	`closed_at` integer,
	FOREIGN KEY (`depot_id`) REFERENCES `shipping_depots`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`race_id`) REFERENCES `races`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shipments_depot` ON `shipments` (`depot_id`,`state`);--> statement-breakpoint
CREATE TABLE `stock_receipts` (
	`id` text PRIMARY KEY NOT NULL,
	`depot_id` text NOT NULL,
	`type_id` text NOT NULL,
	`quantity` integer NOT NULL,
	`numbers` text DEFAULT '[]' NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`depot_id`) REFERENCES `shipping_depots`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`type_id`) REFERENCES `inventory_types`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `stock_receipts_depot` ON `stock_receipts` (`depot_id`);--> statement-breakpoint
ALTER TABLE `inventory_items` ADD `state` text DEFAULT 'available' NOT NULL;--> statement-breakpoint
CREATE INDEX `inventory_items_number` ON `inventory_items` (`depot_id`,`number`);