import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { entrantIndividuals, isLocked, mailingList, namesSomebody, newsletterState, newsletterStateText, normaliseEmail } from "./mailing";

const at = (n: number) => `t${n}`;

describe("who a newsletter goes to", () => {
  it("takes each address once, in any case, without the unsubscribed and what is not an address", () => {
    const list = mailingList(["Ana@Example.com", " ana@example.com ", "bo@example.com", null, "not an address", "cy@example.org"], new Set(["bo@example.com"]));
    expect(list).toEqual({ to: ["ana@example.com", "cy@example.org"], unsubscribed: 1 });
    expect(normaliseEmail("a@b")).toBeNull();
    expect(normaliseEmail("x@y.z")).toBe("x@y.z");
  });

  it("never lists an address twice or one that unsubscribed", () => {
    const address = fc.tuple(fc.constantFrom("ana", "Bo", "cy", "DEE"), fc.constantFrom("example.com", "Example.org")).map(([a, d]) => `${a}@${d}`);
    fc.assert(
      fc.property(fc.array(address, { maxLength: 30 }), fc.array(address, { maxLength: 5 }), (addresses, gone) => {
        const unsubscribed = new Set(gone.map((g) => normaliseEmail(g)!));
        const { to, unsubscribed: skipped } = mailingList(addresses, unsubscribed);
        expect(new Set(to).size).toBe(to.length);
        expect(to.some((a) => unsubscribed.has(a))).toBe(false);
        expect(to.length + skipped).toBe(new Set(addresses.map((a) => a.toLowerCase())).size);
      }),
      fcParams(),
    );
  });
});

describe("where a newsletter stands", () => {
  const none = { total: 0, sent: 0, failed: 0 };
  it("is a draft without a time, scheduled before it, sending while mail goes out, then sent (the spec: sent when sent_time is earlier than now)", () => {
    expect(newsletterStateText(newsletterState(null, false, none, 100), at)).toBe("Draft");
    expect(newsletterStateText(newsletterState(200, false, none, 100), at)).toBe("Scheduled for t200");
    expect(newsletterStateText(newsletterState(50, false, none, 100), at)).toBe("Sending: 0 of 0 sent");
    expect(newsletterStateText(newsletterState(50, true, { total: 3, sent: 2, failed: 0 }, 100), at)).toBe("Sending: 2 of 3 sent");
    expect(newsletterStateText(newsletterState(50, true, { total: 3, sent: 3, failed: 0 }, 100), at)).toBe("Sent t50 to 3 people");
    expect(newsletterStateText(newsletterState(50, true, { total: 3, sent: 2, failed: 1 }, 100), at)).toBe("Sent t50 to 2 people, 1 could not be delivered");
    expect(isLocked(null, 100)).toBe(false);
    expect(isLocked(200, 100)).toBe(false);
    expect(isLocked(50, 100)).toBe(true);
  });
});

describe("a race's entrants as an audience", () => {
  const racers = [
    { importedFrom: "registration:i1", status: "finished" },
    { importedFrom: "registration:i2", status: "dnf" },
    { importedFrom: null, status: "finished" },
    { importedFrom: "import:row-7", status: "finished" },
  ];
  it("are the racers entered from a registration, or only those who finished", () => {
    expect(entrantIndividuals(racers, "entered")).toEqual(["i1", "i2"]);
    expect(entrantIndividuals(racers, "finished")).toEqual(["i1"]);
  });
  it("name somebody only when a group is chosen", () => {
    expect(namesSomebody({ members: false, registrations: [] })).toBe(false);
    expect(namesSomebody({ members: false, registrations: [], races: [] })).toBe(false);
    expect(namesSomebody({ members: false, registrations: [], races: ["r1"] })).toBe(true);
  });
});
