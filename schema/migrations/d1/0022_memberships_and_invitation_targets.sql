CREATE TABLE `division_members` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`division_id` text NOT NULL,
	`club_id` text NOT NULL,
	`site_id` text,
	`person_id` text NOT NULL,
	`season_id` text NOT NULL,
	`member_class` text NOT NULL,
	`attributes` text DEFAULT '{}' NOT NULL,
	`programs` text DEFAULT '[]' NOT NULL,
	`expires_at` integer NOT NULL,
	`individual_id` text,
	FOREIGN KEY (`division_id`) REFERENCES `divisions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`site_id`) REFERENCES `whitelabel_sites`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`person_id`) REFERENCES `division_people`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`season_id`) REFERENCES `division_seasons`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `division_members_season_person` ON `division_members` (`season_id`,`person_id`);--> statement-breakpoint
CREATE INDEX `division_members_division` ON `division_members` (`division_id`,`expires_at`);--> statement-breakpoint
CREATE INDEX `division_members_club` ON `division_members` (`club_id`);--> statement-breakpoint
CREATE INDEX `division_members_site` ON `division_members` (`site_id`);--> statement-breakpoint
CREATE TABLE `division_people` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`division_id` text NOT NULL,
	`club_id` text NOT NULL,
	`site_id` text,
	`member_number` integer NOT NULL,
	`person_key` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`birth_date` text,
	`gender` text,
	`email` text,
	FOREIGN KEY (`division_id`) REFERENCES `divisions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`site_id`) REFERENCES `whitelabel_sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `division_people_key` ON `division_people` (`division_id`,`person_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `division_people_number` ON `division_people` (`division_id`,`member_number`);--> statement-breakpoint
CREATE INDEX `division_people_club` ON `division_people` (`club_id`);--> statement-breakpoint
CREATE INDEX `division_people_site` ON `division_people` (`site_id`);--> statement-breakpoint
CREATE TABLE `division_seasons` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`division_id` text NOT NULL,
	`club_id` text NOT NULL,
	`site_id` text,
	`name` text NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	FOREIGN KEY (`division_id`) REFERENCES `divisions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`site_id`) REFERENCES `whitelabel_sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `division_seasons_name` ON `division_seasons` (`division_id`,`name`);--> statement-breakpoint
CREATE INDEX `division_seasons_club` ON `division_seasons` (`club_id`);--> statement-breakpoint
CREATE INDEX `division_seasons_site` ON `division_seasons` (`site_id`);--> statement-breakpoint
DROP INDEX `invitations_scope`;--> statement-breakpoint
DROP INDEX `invitations_open`;--> statement-breakpoint
ALTER TABLE `invitations` ADD `site_id` text;--> statement-breakpoint
ALTER TABLE `invitations` ADD `target` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `invitations` ADD `target_name` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `invitations` ADD `config` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `invitations` ADD `mail_state` text DEFAULT 'queued' NOT NULL;--> statement-breakpoint
-- Invitations made before targets were recorded were all for races: their target is the race.
UPDATE `invitations` SET `target` = COALESCE(`scope`, `club_id`, ''), `mail_state` = 'sent', `target_name` = COALESCE((SELECT `name` FROM `races` WHERE `races`.`id` = `invitations`.`scope`), '');--> statement-breakpoint
CREATE INDEX `invitations_target` ON `invitations` (`target`);--> statement-breakpoint
CREATE INDEX `invitations_inviter` ON `invitations` (`invited_by`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `invitations_open_target` ON `invitations` (`email`,`role_type`,`target`) WHERE accepted_at IS NULL AND revoked_at IS NULL;