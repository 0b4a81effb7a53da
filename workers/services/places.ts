/**
 * Places held and taken against a form's limits (core/registration/places.ts says which). The cap is enforced
 * by the places_within_cap trigger (migration 0013) inside the statement that writes a place, so a hold when a
 * card payment starts and a take when a cart completes can never pass a limit, however many arrive at once.
 * The counts read here for messages and prices use the same rule as the trigger: taken places and unlapsed
 * holds, of carts and people not removed.
 */
import { and, eq, gt, sql, type SQL } from "drizzle-orm";
import type { FormElement } from "../../core/forms/model";
import { cappedPools, placeProblem, poolLabel, type PlaceClaim } from "../../core/registration/places";
import { places, type Db } from "../../schema/d1";

type Statement = Parameters<Db["batch"]>[0][number];
/** What db.batch takes: at least one statement. */
export type Statements = [Statement, ...Statement[]];

/** A card payment page is open for 31 minutes (Stripe's minimum is 30); its places are held a little longer, so a payment made in the last second still has them. */
export const CHECKOUT_OPEN_MS = 31 * 60_000;
export const HOLD_MS = 35 * 60_000;

/** The trigger's refusal, as D1 reports it (a batch with it is rolled back whole). */
export function isPlaceTaken(error: unknown): boolean {
  return String(error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : error).includes("startline:place_taken");
}

function row(registrationId: string, cartId: string, claim: PlaceClaim, state: "held" | "taken", now: number, expiresAt: number | null) {
  return {
    id: crypto.randomUUID(),
    registrationId,
    pool: claim.pool,
    unit: claim.unit,
    cartId,
    individualId: claim.individualId,
    state,
    expiresAt,
    cap: claim.cap,
    createdAt: now,
  };
}

/**
 * Replaces the cart's holds with holds on the capped places it wants now, until `expiresAt`. A standing waitlist
 * offer's place ends no sooner than the offer: a card page renews it, never shortens it (decision 0075).
 */
export function holdStatements(db: Db, registrationId: string, cartId: string, claims: readonly PlaceClaim[], now: number, expiresAt: number): Statements {
  return [
    releaseStatement(db, cartId),
    ...claims.filter((c) => c.cap !== null).map((claim) => db.insert(places).values(row(registrationId, cartId, claim, "held", now, expiresAt))),
    offersToTheirEnd(db, and(eq(places.cartId, cartId), eq(places.state, "held"))!, now, "renew"),
  ];
}

/** Takes every place the cart completes with (a capped one is refused when full) and drops its holds. */
export function takeStatements(db: Db, registrationId: string, cartId: string, claims: readonly PlaceClaim[], now: number): Statements {
  return [
    releaseStatement(db, cartId),
    // The same place taken twice (a completion replayed) is the row already there.
    ...claims.map((claim) =>
      db
        .insert(places)
        .values(row(registrationId, cartId, claim, "taken", now, null))
        .onConflictDoNothing(),
    ),
  ];
}

/** Lets go of every hold of the cart: it completes (its places are taken in the same batch). */
export function releaseStatement(db: Db, cartId: string): Statement {
  return db.delete(places).where(and(eq(places.cartId, cartId), eq(places.state, "held")));
}

/**
 * Lets go of the cart's holds (its card page closed, expired, was refused or replaced), but not a standing waitlist
 * offer's: that place stays held, back to the offer's own end (a page may have renewed it for longer), until the
 * offer is accepted, declined or lapses (decisions 0072, 0075). `guard` narrows both statements.
 */
export function releaseCartHolds(db: Db, cartId: string, now: number, guard?: SQL): [Statement, Statement] {
  const mine = and(eq(places.cartId, cartId), eq(places.state, "held"), guard)!;
  return [offersToTheirEnd(db, mine, now, "reset"), db.delete(places).where(and(mine, notAnOffersHold(now)))];
}

/** As releaseCartHolds when an attempt's page expired, unless another attempt of the cart is still open. */
export function releaseUnlessPaying(db: Db, cartId: string, expiredAttemptId: string, now: number): [Statement, Statement] {
  return releaseCartHolds(
    db,
    cartId,
    now,
    sql`NOT EXISTS (SELECT 1 FROM payment_attempts a WHERE a.cart_id = ${cartId} AND a.status IN ('open', 'failed') AND a.id != ${expiredAttemptId})`,
  );
}

/**
 * Sets the live holds among `where` that a standing offer holds to the offer's end: exactly ("reset", no page
 * open) or at least ("renew", a page just held them). A lapsed hold is never revived (no trigger checks an UPDATE).
 */
function offersToTheirEnd(db: Db, where: SQL, now: number, mode: "reset" | "renew"): Statement {
  const offerEnd = sql`(SELECT MAX(w.offer_expires_at) ${standingOffers(now)})`;
  return db
    .update(places)
    .set({ expiresAt: mode === "reset" ? offerEnd : sql`MAX(${places.expiresAt}, ${offerEnd})` })
    .where(and(where, gt(places.expiresAt, now), sql`EXISTS (SELECT 1 ${standingOffers(now)})`));
}

/**
 * The waitlist offers still standing that a held place row is for, in one of the pools the offer held when made: a
 * change offer's paid person in the pools it waits for (decision 0066), or a new entry's offer for the person it put in
 * its own cart, the one made in the offer's batch, in every capped pool it held for them (`offer_pools`, decisions 0075,
 * 0078; someone the registrant adds to that cart is held like any cart's).
 */
const standingOffers = (now: number) => sql`FROM waitlist_entries w WHERE w.registration_id = ${places.registrationId} AND w.state = 'offered'
  AND w.offer_expires_at > ${now} AND ${places.pool} IN (SELECT value FROM json_each(COALESCE(w.offer_pools, w.pools)))
  AND (w.change_individual_id = ${places.unit} OR (w.change_individual_id IS NULL AND w.offer_cart_id = ${places.cartId}
    AND EXISTS (SELECT 1 FROM individuals i WHERE i.id = ${places.unit} AND i.cart_id = w.offer_cart_id AND i.created_at = w.offered_at)))`;

/** A held place that is not a standing waitlist offer's: a card page's, free to let go (decisions 0072, 0075). */
export const notAnOffersHold = (now: number) => sql`NOT EXISTS (SELECT 1 ${standingOffers(now)})`;

/** Live places in a pool held or taken by other carts: what the trigger counts. */
export async function takenByOthers(db: Db, registrationId: string, pools: readonly string[], ownCartId: string, now: number): Promise<Map<string, number>> {
  const counts = new Map<string, number>(pools.map((pool) => [pool, 0]));
  if (pools.length === 0) return counts;
  const rows = await db.all<{ pool: string; n: number }>(sql`
    SELECT p.pool AS pool, COUNT(DISTINCT p.unit) AS n FROM places p JOIN carts c ON c.id = p.cart_id
    WHERE p.registration_id = ${registrationId} AND p.pool IN (SELECT value FROM json_each(${JSON.stringify(pools)})) AND p.cart_id != ${ownCartId}
      AND c.is_removed = 0 AND (p.state = 'taken' OR p.expires_at > ${now})
      AND (p.individual_id IS NULL OR NOT EXISTS (SELECT 1 FROM individuals i WHERE i.id = p.individual_id AND i.is_removed = 1))
    GROUP BY p.pool`);
  for (const { pool, n } of rows) counts.set(pool, n);
  return counts;
}

/**
 * Which of the cart's wanted places no longer fit, keyed by pool, as a registrant reads it ('Sold out' or
 * 'Only N left', after the option, field or code it is about). Empty when everything fits.
 */
export async function placeProblems(
  db: Db,
  registrationId: string,
  cartId: string,
  claims: readonly PlaceClaim[],
  elements: readonly FormElement[],
  now: number,
  lang: "en" | "fr" = "en",
): Promise<Record<string, string>> {
  const pools = cappedPools(claims);
  const taken = await takenByOthers(db, registrationId, [...pools.keys()], cartId, now);
  const problems: Record<string, string> = {};
  for (const [pool, { cap, wanted }] of pools) {
    const problem = placeProblem(cap, taken.get(pool) ?? 0, wanted);
    if (problem) problems[pool] = `${poolLabel(elements, pool, lang)}: ${problem}`;
  }
  return problems;
}
