import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { MAX_OFFER_HOURS, offerExpiry, parseOfferHours, planOffers, swapWithNeighbour, WAITLIST_WORDS, wishOf, type QueuedEntry } from "./waitlist";

const entry = (id: string, ...needs: [string, number][]): QueuedEntry => ({ id, needs: needs.map(([pool, cap]) => ({ pool, cap })) });

describe("who is offered a freed place", () => {
  it("offers the front of the queue as many places as are free, and no more", () => {
    const queue = [entry("a", ["opt:d:10k", 5]), entry("b", ["opt:d:10k", 5]), entry("c", ["opt:d:10k", 5])];
    expect(planOffers(queue, new Map([["opt:d:10k", 5]]))).toEqual([]);
    expect(planOffers(queue, new Map([["opt:d:10k", 4]]))).toEqual(["a"]);
    expect(planOffers(queue, new Map([["opt:d:10k", 3]]))).toEqual(["a", "b"]);
  });

  it("lets someone waiting for another option past a person whose option is still full", () => {
    const queue = [entry("a", ["opt:d:10k", 5]), entry("b", ["opt:d:5k", 3])];
    expect(
      planOffers(
        queue,
        new Map([
          ["opt:d:10k", 5],
          ["opt:d:5k", 2],
        ]),
      ),
    ).toEqual(["b"]);
  });

  it("needs room in every pool a person waits for", () => {
    const queue = [entry("a", ["el:d", 100], ["opt:d:10k", 5])];
    expect(
      planOffers(
        queue,
        new Map([
          ["el:d", 100],
          ["opt:d:10k", 1],
        ]),
      ),
    ).toEqual([]);
  });

  it("never offers more than a pool has room for, and skips nobody who fits", () => {
    const pools = ["p1", "p2", "p3"];
    fc.assert(
      fc.property(
        fc.array(fc.subarray(pools, { minLength: 1 }), { maxLength: 30 }),
        fc.record({ p1: fc.nat(6), p2: fc.nat(6), p3: fc.nat(6) }),
        fc.record({ p1: fc.nat(8), p2: fc.nat(8), p3: fc.nat(8) }),
        (wishes, caps, live) => {
          const queue = wishes.map((w, i) => ({ id: `e${i}`, needs: w.map((pool) => ({ pool, cap: caps[pool as keyof typeof caps] })) }));
          const offered = planOffers(queue, new Map(Object.entries(live)));
          const used = new Map(Object.entries(live));
          for (const e of queue) {
            const fits = e.needs.every(({ pool, cap }) => used.get(pool)! < cap);
            // Offered exactly when, in queue order, every pool it needs still has room.
            expect(offered.includes(e.id)).toBe(fits);
            if (fits) for (const { pool } of e.needs) used.set(pool, used.get(pool)! + 1);
          }
          for (const pool of pools) {
            const added = queue.filter((e) => offered.includes(e.id) && e.needs.some((n) => n.pool === pool)).length;
            expect(added === 0 || live[pool as keyof typeof live] + added <= caps[pool as keyof typeof caps]).toBe(true);
          }
        },
      ),
      fcParams(),
    );
  });
});

describe("offers and order", () => {
  it("holds an offer for the form's hours, at least one and at most two weeks", () => {
    expect(offerExpiry(0, 48)).toBe(48 * 3_600_000);
    expect(offerExpiry(0, 0)).toBe(3_600_000);
    expect(offerExpiry(0, 10_000)).toBe(MAX_OFFER_HOURS * 3_600_000);
  });

  it("moves an entry by swapping places with its neighbour, not at the ends", () => {
    const list = [
      { id: "a", position: 1 },
      { id: "b", position: 2 },
      { id: "c", position: 4 },
    ];
    expect(swapWithNeighbour(list, "c", "up")).toEqual([
      { id: "c", position: 2 },
      { id: "b", position: 4 },
    ]);
    expect(swapWithNeighbour(list, "a", "up")).toBeNull();
    expect(swapWithNeighbour(list, "c", "down")).toBeNull();
    expect(swapWithNeighbour(list, "x", "down")).toBeNull();
  });

  it("names what a person waits for in one phrase", () => {
    expect(wishOf(["10 km"], "en")).toBe("10 km");
    expect(wishOf(["Distance", "10 km", "10 km"], "en")).toBe("Distance and 10 km");
    expect(wishOf(["A", "B", "C"], "fr")).toBe("A, B et C");
  });
});

describe("the offer time setting", () => {
  it("is empty for no waitlist, or whole hours up to two weeks", () => {
    expect(parseOfferHours("")).toEqual({ ok: true, value: null });
    expect(parseOfferHours(" 48 ")).toEqual({ ok: true, value: 48 });
    expect(parseOfferHours("336")).toEqual({ ok: true, value: 336 });
    for (const bad of ["0", "337", "1.5", "two"])
      expect(parseOfferHours(bad)).toEqual({ ok: false, error: "Enter whole hours from 1 to 336, or leave empty for no waitlist" });
  });
});

describe("an offer's words", () => {
  it("end a sentence on a time once, whether the time ends in a period or not", () => {
    expect(WAITLIST_WORDS.en.held("November 28, 2026 at 4:50 p.m.")).toBe(
      "A place is held for you until November 28, 2026 at 4:50 p.m. Pay before then to keep it.",
    );
    expect(WAITLIST_WORDS.fr.held("28 novembre 2026 à 16 h 50")).toBe(
      "Une place vous est réservée jusqu'au 28 novembre 2026 à 16 h 50. Payez d'ici là pour la garder.",
    );
    expect(WAITLIST_WORDS.en.offerMail("Kids' 3 km", "Riverside", "May 1, 2027 at 4:06 p.m.")).toMatch(/until May 1, 2027 at 4:06 p\.m\.\n\nOpen this link/);
    expect(WAITLIST_WORDS.fr.offerMail("3 km", "Riverside", "1 mai 2027 à 16 h 06")).toMatch(/jusqu'au 1 mai 2027 à 16 h 06\.\n\nOuvrez ce lien/);
  });
});
