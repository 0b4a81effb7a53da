CREATE TABLE `site_domains` (
	`id` text PRIMARY KEY NOT NULL,
	`site_id` text NOT NULL,
	`hostname` text NOT NULL,
	`cloudflare_id` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`ssl_status` text,
	`records` text DEFAULT '[]' NOT NULL,
	`errors` text DEFAULT '[]' NOT NULL,
	`is_primary` integer DEFAULT false NOT NULL,
	`checked_at` integer,
	`created_at` integer NOT NULL,
	`created_by` text,
	FOREIGN KEY (`site_id`) REFERENCES `whitelabel_sites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `site_domains_hostname` ON `site_domains` (`hostname`);--> statement-breakpoint
CREATE INDEX `site_domains_site` ON `site_domains` (`site_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `site_domains_primary` ON `site_domains` (`site_id`) WHERE is_primary = 1;--> statement-breakpoint
CREATE INDEX `site_domains_checked` ON `site_domains` (`checked_at`);