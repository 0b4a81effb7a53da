CREATE TABLE `entity_changes` (
	`id` text PRIMARY KEY NOT NULL,
	`classname` text NOT NULL,
	`entity_id` text NOT NULL,
	`field` text NOT NULL,
	`kind` text NOT NULL,
	`old_value` text,
	`new_value` text,
	`user_id` text,
	`app_id` text,
	`changed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `entity_changes_entity` ON `entity_changes` (`classname`,`entity_id`,`changed_at`);