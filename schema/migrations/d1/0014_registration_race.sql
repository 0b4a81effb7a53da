ALTER TABLE `registrations` ADD `race_id` text;--> statement-breakpoint
ALTER TABLE `registrations` ADD `race_course_id` text;--> statement-breakpoint
ALTER TABLE `registrations` ADD `race_start_group_id` text;