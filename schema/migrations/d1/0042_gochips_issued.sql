-- Decision 0073: a chip issued to a racer at a race leaves its slot; the columns say to whom, when and from which rack and shipment.
-- ON DELETE SET NULL written by hand: drizzle-kit drops it from an added column, and a deleted race, rack or shipment must not be blocked by an issued chip.
ALTER TABLE `gochips` ADD `issued_race_id` text REFERENCES races(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `gochips` ADD `issued_racer_id` text;--> statement-breakpoint
ALTER TABLE `gochips` ADD `issued_bib` integer;--> statement-breakpoint
ALTER TABLE `gochips` ADD `issued_at` integer;--> statement-breakpoint
ALTER TABLE `gochips` ADD `issued_rack_id` text REFERENCES gochip_racks(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `gochips` ADD `issued_shipment_id` text REFERENCES shipments(id) ON DELETE SET NULL;--> statement-breakpoint
CREATE INDEX `gochips_issued_race` ON `gochips` (`issued_race_id`);