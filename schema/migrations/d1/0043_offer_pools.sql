ALTER TABLE `waitlist_entries` ADD `offer_pools` text;--> statement-breakpoint
-- Offers out now: the pools they wait for and whatever their person still holds in the offer's cart (decision 0078).
UPDATE `waitlist_entries` SET `offer_pools` = (
  SELECT json_group_array(pool) FROM (
    SELECT value AS pool FROM json_each(`waitlist_entries`.`pools`)
    UNION
    SELECT p.pool FROM places p JOIN individuals i ON i.id = p.unit
    WHERE p.cart_id = `waitlist_entries`.`offer_cart_id` AND p.state = 'held'
      AND i.cart_id = `waitlist_entries`.`offer_cart_id` AND i.created_at = `waitlist_entries`.`offered_at`
  )
) WHERE `state` = 'offered' AND `change_individual_id` IS NULL AND `offer_cart_id` IS NOT NULL;
