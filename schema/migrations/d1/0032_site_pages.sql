ALTER TABLE `whitelabel_sites` ADD `version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `site_pages` ADD `title_fr` text;--> statement-breakpoint
ALTER TABLE `site_pages` ADD `body_fr` text;