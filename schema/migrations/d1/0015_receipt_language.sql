ALTER TABLE `carts` ADD `lang` text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE `carts` ADD `pricing` text;--> statement-breakpoint
ALTER TABLE `payment_attempts` ADD `pricing` text;