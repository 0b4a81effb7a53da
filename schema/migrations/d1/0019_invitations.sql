CREATE TABLE `invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL,
	`invited_by` text NOT NULL,
	`email` text NOT NULL,
	`role_type` text NOT NULL,
	`club_id` text,
	`scope` text,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`accepted_at` integer,
	`accepted_by` text,
	`revoked_at` integer,
	FOREIGN KEY (`invited_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`accepted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invitations_token` ON `invitations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `invitations_scope` ON `invitations` (`scope`);--> statement-breakpoint
CREATE UNIQUE INDEX `invitations_open` ON `invitations` (`email`,`role_type`,`scope`) WHERE accepted_at IS NULL AND revoked_at IS NULL;