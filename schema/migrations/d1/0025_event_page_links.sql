ALTER TABLE `event_pages` ADD `is_public` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `event_pages` ADD `event_status` text DEFAULT 'scheduled' NOT NULL;--> statement-breakpoint
ALTER TABLE `event_pages` ADD `location` text;--> statement-breakpoint
ALTER TABLE `event_pages` ADD `race_ids` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `event_pages` ADD `registration_ids` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `event_pages_site_page_url` ON `event_pages` (`site_id`,`page_url`);