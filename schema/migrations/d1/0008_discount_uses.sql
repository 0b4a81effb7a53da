ALTER TABLE `carts` ADD `discount_uses` text;--> statement-breakpoint
ALTER TABLE `payment_attempts` ADD `discount_uses` text;