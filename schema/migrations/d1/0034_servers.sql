CREATE TABLE `serverbox_auth_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`secret_hash` text NOT NULL,
	`user_code` text NOT NULL,
	`serial` text NOT NULL,
	`name` text NOT NULL,
	`software_version` text,
	`server_id` text,
	`club_id` text,
	`site_id` text,
	`role_id` text,
	`user_id` text,
	`created` integer NOT NULL,
	`expires` integer NOT NULL,
	`completed` integer,
	`cancelled` integer,
	`delivered` integer,
	`interval` integer NOT NULL,
	`last_poll` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `serverbox_auth_requests_open_code` ON `serverbox_auth_requests` (`user_code`) WHERE completed IS NULL AND cancelled IS NULL;--> statement-breakpoint
CREATE INDEX `serverbox_auth_requests_code` ON `serverbox_auth_requests` (`user_code`,`created`);--> statement-breakpoint
CREATE INDEX `serverbox_auth_requests_expires` ON `serverbox_auth_requests` (`expires`);--> statement-breakpoint
ALTER TABLE `serverboxes` ADD `token_hash` text;