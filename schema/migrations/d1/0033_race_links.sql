ALTER TABLE `clubs` ADD `tax_number` text;--> statement-breakpoint
ALTER TABLE `individuals` ADD `racer_place` text;--> statement-breakpoint
ALTER TABLE `registrations` ADD `race_option_field` text;--> statement-breakpoint
ALTER TABLE `registrations` ADD `race_option_links` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `registrations` ADD `racer_field_map` text DEFAULT '{}' NOT NULL;