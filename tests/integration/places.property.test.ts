// A property over random interleavings of holds, lapsed holds and takes from many carts at once, against the
// real D1 trigger: a pool never passes its cap, a refusal is only ever "place taken", and the count the pages
// show (takenByOthers) predicts exactly what the database accepts next.
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { placeProblem, type PlaceClaim } from "../../core/registration/places";
import { carts, places } from "../../schema/d1";
import { holdStatements, isPlaceTaken, takeStatements, takenByOthers } from "../../workers/services/places";
import { db } from "./auth-fixtures";
import { createForm } from "./registration-fixtures";

type Op = { cart: number; kind: "hold" | "lapsed-hold" | "take" };

const POOL = "opt:distance:10k";

describe("places: any interleaving of carts holding and taking", () => {
  it("never passes the cap, and the shown count predicts what the database accepts", { timeout: 60_000 }, async () => {
    const f = await createForm({ isStripe: false });
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.record({ cart: fc.integer({ min: 0, max: 7 }), kind: fc.constantFrom<Op["kind"]>("hold", "lapsed-hold", "take") }), {
          minLength: 1,
          maxLength: 14,
        }),
        async (scheduler, cap, ops) => {
          // Each run is its own registration's pool: a fresh set of carts.
          const registrationId = f.registration.id;
          const cartIds = Array.from({ length: 8 }, () => crypto.randomUUID());
          const pool = `${POOL}:${crypto.randomUUID()}`;
          for (const id of cartIds)
            await db().insert(carts).values({ id, registrationId, clubId: f.club.id, siteId: f.site.id, fieldMtimes: {}, isComplete: false });
          const claim = (cart: number): PlaceClaim => ({ pool, unit: `${cartIds[cart]}#1`, individualId: null, cap });
          const now = Date.now();
          const pending = Promise.all(
            ops.map((op) =>
              scheduler.schedule(Promise.resolve(op), `${op.kind} ${op.cart}`).then(async () => {
                const id = cartIds[op.cart]!;
                const statements =
                  op.kind === "take"
                    ? takeStatements(db(), registrationId, id, [claim(op.cart)], now)
                    : holdStatements(db(), registrationId, id, [claim(op.cart)], now, op.kind === "hold" ? now + 60_000 : now - 1);
                try {
                  await db().batch(statements);
                  return "ok" as const;
                } catch (error) {
                  if (isPlaceTaken(error)) return "refused" as const;
                  throw error;
                }
              }),
            ),
          );
          await scheduler.waitAll();
          const outcomes = await pending;

          const rows = await db().select().from(places).where(eq(places.pool, pool));
          const taken = rows.filter((r) => r.state === "taken").length;
          // A person (or code use) holding and taken at once is one place.
          const live = new Set(rows.filter((r) => r.state === "taken" || (r.expiresAt ?? 0) > now).map((r) => r.unit)).size;
          expect(taken).toBeLessThanOrEqual(cap);
          // Every take the database accepted is a place; none was lost or doubled.
          expect(new Set(ops.filter((op, i) => op.kind === "take" && outcomes[i] === "ok").map((op) => op.cart)).size).toBe(taken);
          expect(live).toBeLessThanOrEqual(cap);

          // What a newcomer is told matches what the database then does.
          const newcomer = crypto.randomUUID();
          await db().insert(carts).values({ id: newcomer, registrationId, clubId: f.club.id, siteId: f.site.id, fieldMtimes: {} });
          const shown = (await takenByOthers(db(), registrationId, [pool], newcomer, now)).get(pool) ?? 0;
          const predicted = placeProblem(cap, shown, 1) === null;
          const accepted = await db()
            .batch(holdStatements(db(), registrationId, newcomer, [{ pool, unit: `${newcomer}#1`, individualId: null, cap }], now, now + 60_000))
            .then(
              () => true,
              (error: unknown) => {
                if (isPlaceTaken(error)) return false;
                throw error;
              },
            );
          expect(accepted).toBe(predicted);
        },
      ),
      { numRuns: 30 },
    );
  });
});
