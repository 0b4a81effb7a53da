CREATE TABLE `cart_changes` (
	`id` text PRIMARY KEY NOT NULL,
	`cart_id` text NOT NULL,
	`registration_id` text NOT NULL,
	`individual_id` text,
	`kind` text NOT NULL,
	`amount` integer DEFAULT 0 NOT NULL,
	`actor` text NOT NULL,
	`detail` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `cart_changes_registration` ON `cart_changes` (`registration_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `cart_changes_cart` ON `cart_changes` (`cart_id`);--> statement-breakpoint
ALTER TABLE `registrations` ADD `cancel_refund_percent` integer;--> statement-breakpoint
ALTER TABLE `registrations` ADD `cancel_fee` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `registrations` ADD `cancel_deadline` integer;