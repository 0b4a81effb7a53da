CREATE TABLE `places` (
	`id` text PRIMARY KEY NOT NULL,
	`registration_id` text NOT NULL,
	`pool` text NOT NULL,
	`unit` text NOT NULL,
	`cart_id` text NOT NULL,
	`individual_id` text,
	`state` text NOT NULL,
	`expires_at` integer,
	`cap` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `places_unit` ON `places` (`registration_id`,`pool`,`unit`,`state`);--> statement-breakpoint
CREATE INDEX `places_cart` ON `places` (`cart_id`,`state`);--> statement-breakpoint
ALTER TABLE `individuals` ADD `submission_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `individuals_submission` ON `individuals` (`registration_id`,`submission_key`);--> statement-breakpoint
ALTER TABLE `payment_attempts` ADD `places` text;--> statement-breakpoint
-- A place that would pass its cap is refused here, inside the writing transaction: the count and the write are one step, so two payments completing at once cannot both take the last place. Live places are taken ones and holds not yet lapsed, of carts and people not removed; a unit (a person, a code use) counts once, whether held, taken or both, and never against itself.
CREATE TRIGGER `places_within_cap` BEFORE INSERT ON `places`
WHEN NEW.`cap` IS NOT NULL AND (
  SELECT COUNT(DISTINCT p.`unit`) FROM `places` p JOIN `carts` c ON c.`id` = p.`cart_id`
  WHERE p.`registration_id` = NEW.`registration_id` AND p.`pool` = NEW.`pool` AND p.`unit` != NEW.`unit`
    AND c.`is_removed` = 0
    AND (p.`state` = 'taken' OR p.`expires_at` > NEW.`created_at`)
    AND (p.`individual_id` IS NULL OR NOT EXISTS (SELECT 1 FROM `individuals` i WHERE i.`id` = p.`individual_id` AND i.`is_removed` = 1))
) >= NEW.`cap`
BEGIN
  SELECT RAISE(ABORT, 'startline:place_taken');
END;
--> statement-breakpoint
-- Places already taken by complete carts: each answered option-type field and its options, each answered field with a quantity limit.
INSERT OR IGNORE INTO `places` (`id`, `registration_id`, `pool`, `unit`, `cart_id`, `individual_id`, `state`, `expires_at`, `cap`, `created_at`)
SELECT lower(hex(randomblob(16))), i.`registration_id`, 'el:' || e.`id`, i.`id`, i.`cart_id`, i.`id`, 'taken', NULL, NULL, COALESCE(c.`completed_at`, c.`created_at`)
FROM `individuals` i JOIN `carts` c ON c.`id` = i.`cart_id` AND c.`is_complete` = 1
JOIN `form_elements` e ON e.`registration_id` = i.`registration_id` AND (e.`type` IN ('option', 'multioption', 'membership') OR e.`quantity_limit` IS NOT NULL)
WHERE i.`is_complete` = 1 AND json_extract(i.`values`, '$."' || e.`id` || '".v') IS NOT NULL AND json_extract(i.`values`, '$."' || e.`id` || '".v') != '';
--> statement-breakpoint
INSERT OR IGNORE INTO `places` (`id`, `registration_id`, `pool`, `unit`, `cart_id`, `individual_id`, `state`, `expires_at`, `cap`, `created_at`)
SELECT lower(hex(randomblob(16))), i.`registration_id`, 'opt:' || e.`id` || ':' || o.`value`, i.`id`, i.`cart_id`, i.`id`, 'taken', NULL, NULL, COALESCE(c.`completed_at`, c.`created_at`)
FROM `individuals` i JOIN `carts` c ON c.`id` = i.`cart_id` AND c.`is_complete` = 1
JOIN `form_elements` e ON e.`registration_id` = i.`registration_id` AND e.`type` IN ('option', 'multioption', 'membership')
JOIN json_each(CASE json_type(i.`values`, '$."' || e.`id` || '".v')
    WHEN 'array' THEN json_extract(i.`values`, '$."' || e.`id` || '".v')
    WHEN 'object' THEN json_array(json_extract(i.`values`, '$."' || e.`id` || '".v.option'))
    WHEN 'text' THEN json_array(json_extract(i.`values`, '$."' || e.`id` || '".v'))
    ELSE '[]' END) o
WHERE i.`is_complete` = 1 AND o.`type` = 'text' AND o.`value` != '';
--> statement-breakpoint
-- Discount code uses recorded on complete carts, one row per use.
WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 500)
INSERT OR IGNORE INTO `places` (`id`, `registration_id`, `pool`, `unit`, `cart_id`, `individual_id`, `state`, `expires_at`, `cap`, `created_at`)
SELECT lower(hex(randomblob(16))), c.`registration_id`, 'code:' || upper(d.`key`), c.`id` || '#' || n.k, c.`id`, NULL, 'taken', NULL, NULL, COALESCE(c.`completed_at`, c.`created_at`)
FROM `carts` c JOIN json_each(c.`discount_uses`) d JOIN n ON n.k <= d.`value`
WHERE c.`is_complete` = 1 AND c.`discount_uses` IS NOT NULL;
--> statement-breakpoint
-- Carts completed before uses were recorded (discount_uses NULL) count one use per code they entered.
INSERT OR IGNORE INTO `places` (`id`, `registration_id`, `pool`, `unit`, `cart_id`, `individual_id`, `state`, `expires_at`, `cap`, `created_at`)
SELECT lower(hex(randomblob(16))), c.`registration_id`, 'code:' || upper(d.`value`), c.`id` || '#1', c.`id`, NULL, 'taken', NULL, NULL, COALESCE(c.`completed_at`, c.`created_at`)
FROM `carts` c JOIN json_each('["' || replace(trim(c.`discount_codes`), ' ', '","') || '"]') d
WHERE c.`is_complete` = 1 AND c.`discount_uses` IS NULL AND trim(c.`discount_codes`) != '' AND d.`value` != '';
