CREATE TABLE `bank_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`name` text NOT NULL,
	`display_name` text DEFAULT '' NOT NULL,
	`user_id` text,
	`club_id` text NOT NULL,
	`kind` text DEFAULT 'remittance' NOT NULL,
	`account_last4` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `bank_accounts_club` ON `bank_accounts` (`club_id`);--> statement-breakpoint
CREATE TABLE `payment_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`cart_id` text NOT NULL,
	`registration_id` text NOT NULL,
	`club_id` text NOT NULL,
	`provider` text NOT NULL,
	`amount` integer NOT NULL,
	`system_fee` integer DEFAULT 0 NOT NULL,
	`idempotency_key` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`checkout_session_id` text,
	`payment_intent_id` text,
	`checkout_url` text,
	`failure_message` text,
	`stripe_account` text,
	`individual_totals` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_attempts_key` ON `payment_attempts` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `payment_attempts_cart` ON `payment_attempts` (`cart_id`,`status`);--> statement-breakpoint
CREATE INDEX `payment_attempts_session` ON `payment_attempts` (`checkout_session_id`);--> statement-breakpoint
CREATE TABLE `payment_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `pending_bank_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`account_id` text,
	`club_id` text NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`kind` text DEFAULT 'remittance' NOT NULL,
	`account_last4` text DEFAULT '' NOT NULL,
	`requested_by` text,
	`approved_time` integer,
	`denied_time` integer
);
--> statement-breakpoint
CREATE INDEX `pending_bank_accounts_club` ON `pending_bank_accounts` (`club_id`);--> statement-breakpoint
CREATE TABLE `registration_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`registration_id` text NOT NULL,
	`club_id` text NOT NULL,
	`site_id` text,
	`name` text NOT NULL,
	`type` text DEFAULT 'individuals' NOT NULL,
	`is_shared` integer DEFAULT false NOT NULL,
	`fields_list` text DEFAULT '[]' NOT NULL,
	`sorts_list` text DEFAULT '[]' NOT NULL,
	`groups_list` text DEFAULT '[]' NOT NULL,
	`filters_list` text DEFAULT '[]' NOT NULL,
	`created_by` text
);
--> statement-breakpoint
CREATE INDEX `registration_reports_registration` ON `registration_reports` (`registration_id`);--> statement-breakpoint
CREATE TABLE `transactions` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`field_mtimes` text DEFAULT '{}' NOT NULL,
	`type` text NOT NULL,
	`amount` integer NOT NULL,
	`payer` text DEFAULT '' NOT NULL,
	`payee` text DEFAULT '' NOT NULL,
	`surcharge` integer DEFAULT 0 NOT NULL,
	`batch_from_time` integer,
	`batch_to_time` integer,
	`completion_time` integer,
	`is_void` integer DEFAULT false NOT NULL,
	`parent_transaction` text,
	`cart_id` text,
	`registration_id` text,
	`club_id` text NOT NULL,
	`site_id` text,
	`provider` text NOT NULL,
	`method` text,
	`external_id` text,
	`attempt_id` text,
	`note` text DEFAULT '' NOT NULL,
	`created_by` text
);
--> statement-breakpoint
CREATE INDEX `transactions_club` ON `transactions` (`club_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `transactions_cart` ON `transactions` (`cart_id`);--> statement-breakpoint
CREATE INDEX `transactions_registration` ON `transactions` (`registration_id`,`type`);--> statement-breakpoint
CREATE INDEX `transactions_parent` ON `transactions` (`parent_transaction`);--> statement-breakpoint
CREATE UNIQUE INDEX `transactions_external` ON `transactions` (`provider`,`external_id`);--> statement-breakpoint
ALTER TABLE `clubs` ADD `is_merchant` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `clubs` ADD `payment_publishable_key` text;--> statement-breakpoint
ALTER TABLE `clubs` ADD `stripe_account_id` text;--> statement-breakpoint
ALTER TABLE `clubs` ADD `bankaccount_id` text;--> statement-breakpoint
ALTER TABLE `carts` ADD `total` integer;--> statement-breakpoint
ALTER TABLE `carts` ADD `completed_at` integer;--> statement-breakpoint
ALTER TABLE `carts` ADD `receipt_hash` text;--> statement-breakpoint
ALTER TABLE `individuals` ADD `price_total` integer;