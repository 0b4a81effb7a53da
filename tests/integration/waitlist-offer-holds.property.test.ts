// A property over any sequence of card pages an offered registrant opens, lets expire, has refused or closes by
// changing the cart, at any time before or after the offer's end (decision 0075): while the offer stands its place
// is held to at least the offer's end (and a page's own end), so nobody else can hold it; once it has ended, a page
// letting go frees it. The same holds for a second capped choice the offer held for its person without waiting for it
// (a T-shirt size, decision 0078); a person added to the cart later is held only while a page is open.
import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../../core/testing/fast-check";
import type { PlaceClaim } from "../../core/registration/places";
import { carts, individuals, places, waitlistEntries } from "../../schema/d1";
import { holdStatements, HOLD_MS, isPlaceTaken, releaseCartHolds, releaseUnlessPaying } from "../../workers/services/places";
import { db } from "./auth-fixtures";
import { createForm } from "./registration-fixtures";

type Op = { kind: "open" | "expire" | "refused" | "changed"; minute: number };
const OFFER_MS = 2 * 3_600_000;

describe("a new entry's offer under any sequence of its card pages", () => {
  it("holds its place to the offer's end while it stands, and lets it go after", { timeout: 120_000 }, async () => {
    const f = await createForm({ isStripe: false });
    const registrationId = f.registration.id;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ kind: fc.constantFrom<Op["kind"]>("open", "expire", "refused", "changed"), minute: fc.integer({ min: 0, max: 180 }) }), {
          minLength: 1,
          maxLength: 10,
        }),
        async (drawn) => {
          const ops = [...drawn].sort((a, b) => a.minute - b.minute);
          const offeredAt = Date.now();
          const offerEnd = offeredAt + OFFER_MS;
          const pool = `opt:distance:half-${crypto.randomUUID()}`;
          const shirt = `opt:shirt:s-${crypto.randomUUID()}`;
          const [cartId, rivalCart, personId, friendId] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
          for (const id of [cartId, rivalCart]) await db().insert(carts).values({ id, registrationId, clubId: f.club.id, siteId: f.site.id, fieldMtimes: {} });
          // The offer's batch: the person in its cart, the entry offered, the place held to the offer's end.
          await db()
            .insert(individuals)
            .values({ id: personId, createdAt: offeredAt, cartId, registrationId, clubId: f.club.id, siteId: f.site.id, isComplete: true, ordinal: 1 });
          // A friend the registrant adds to the offer's cart a minute later: not the offer's person.
          await db()
            .insert(individuals)
            .values({
              id: friendId,
              createdAt: offeredAt + 60_000,
              cartId,
              registrationId,
              clubId: f.club.id,
              siteId: f.site.id,
              isComplete: true,
              ordinal: 2,
            });
          await db()
            .insert(waitlistEntries)
            .values({
              id: crypto.randomUUID(),
              registrationId,
              clubId: f.club.id,
              pools: [pool],
              offerPools: [pool, shirt].sort(),
              position: 1,
              email: "ben@example.com",
              name: "Ben Runner",
              values: {},
              submissionKey: crypto.randomUUID(),
              state: "offered",
              offerCartId: cartId,
              offeredAt,
              offerExpiresAt: offerEnd,
              createdAt: offeredAt,
              updatedAt: offeredAt,
            });
          const claim: PlaceClaim = { pool, unit: personId, individualId: personId, cap: 1 };
          const claims: PlaceClaim[] = [claim, { ...claim, pool: shirt }];
          const friendClaim: PlaceClaim = { pool: shirt, unit: friendId, individualId: friendId, cap: 2 };
          await db().batch(holdStatements(db(), registrationId, cartId, claims, offeredAt, offerEnd));

          for (const op of ops) {
            const t = offeredAt + op.minute * 60_000;
            const statements =
              op.kind === "open"
                ? holdStatements(db(), registrationId, cartId, [...claims, friendClaim], t, t + HOLD_MS)
                : op.kind === "expire"
                  ? releaseUnlessPaying(db(), cartId, "no-other-page", t)
                  : releaseCartHolds(db(), cartId, t);
            await db().batch(statements);
            const held = await db()
              .select()
              .from(places)
              .where(and(eq(places.cartId, cartId), eq(places.state, "held")));
            const endIn = (p: string, unit = personId) => held.find((h) => h.pool === p && h.unit === unit)?.expiresAt ?? null;
            const end = endIn(pool);
            if (op.kind === "open") expect(end).toBe(t < offerEnd ? Math.max(t + HOLD_MS, offerEnd) : t + HOLD_MS);
            else expect(end).toBe(t < offerEnd ? offerEnd : null);
            // The offered person's second capped choice ends with the first; the friend's only with the page.
            expect(endIn(shirt)).toBe(end);
            expect(endIn(shirt, friendId)).toBe(op.kind === "open" ? t + HOLD_MS : null);

            // Another cart asking for either place at that moment is refused exactly while the hold is live.
            for (const asked of [pool, shirt]) {
              const rival = await db()
                .batch(holdStatements(db(), registrationId, rivalCart, [{ pool: asked, unit: `${rivalCart}#1`, individualId: null, cap: 1 }], t, t + HOLD_MS))
                .then(
                  () => true,
                  (error: unknown) => {
                    if (isPlaceTaken(error)) return false;
                    throw error;
                  },
                );
              expect(rival).toBe(end === null || end <= t);
              if (t < offerEnd) expect(rival).toBe(false);
              await db().delete(places).where(eq(places.cartId, rivalCart));
            }
          }
        },
      ),
      fcParams(30),
    );
  });
});
