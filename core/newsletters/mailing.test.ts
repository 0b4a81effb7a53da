import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import {
  audienceFilterProblem,
  audienceSummary,
  categoriesOf,
  entrantIndividuals,
  isLocked,
  mailingList,
  namesSomebody,
  newsletterState,
  newsletterStateText,
  normaliseEmail,
  takesEntrant,
} from "./mailing";

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

describe("the race entrants' course and category filters", () => {
  const entry = (n: number) => `registration:ind-${n}`;
  const racers = [
    { importedFrom: entry(1), status: "finished", course: "c5k", category: "U16" },
    { importedFrom: entry(2), status: "dnf", course: "c5k", category: "Open" },
    { importedFrom: entry(3), status: "finished", course: "c10k", category: "U16 " },
    { importedFrom: null, status: "finished", course: "c10k", category: "U16" },
    { importedFrom: entry(4), status: "finished", course: null, category: null },
  ];

  it("takes only the entrants on a chosen course and in a chosen category; none chosen takes all", () => {
    expect(entrantIndividuals(racers, "entered")).toEqual(["ind-1", "ind-2", "ind-3", "ind-4"]);
    expect(entrantIndividuals(racers, { entrants: "entered", courses: ["c5k"] })).toEqual(["ind-1", "ind-2"]);
    expect(entrantIndividuals(racers, { entrants: "entered", categories: ["U16"] })).toEqual(["ind-1", "ind-3"]);
    expect(entrantIndividuals(racers, { entrants: "finished", courses: ["c5k", "c10k"], categories: ["U16", "Open"] })).toEqual(["ind-1", "ind-3"]);
    expect(entrantIndividuals(racers, { entrants: "entered", courses: [], categories: [] })).toHaveLength(4);
  });

  it("never takes more with a filter than without, and each one taken passes every list", () => {
    const racer = fc.record({
      importedFrom: fc.option(fc.nat({ max: 20 }).map(entry)),
      status: fc.constantFrom("finished", "dnf", "notstarted"),
      course: fc.option(fc.constantFrom("a", "b", "c")),
      category: fc.option(fc.constantFrom("U16", "Open", "M40")),
    });
    fc.assert(
      fc.property(
        fc.array(racer, { maxLength: 20 }),
        fc.constantFrom("entered" as const, "finished" as const),
        fc.subarray(["a", "b", "c"]),
        fc.subarray(["U16", "Open", "M40"]),
        (list, entrants, courses, categories) => {
          const all = entrantIndividuals(list, entrants);
          const some = entrantIndividuals(list, { entrants, courses, categories });
          expect(some.length).toBeLessThanOrEqual(all.length);
          const filter = { entrants, courses, categories };
          for (const id of some) expect(list.some((r) => r.importedFrom === entry(Number(id.slice(4))) && takesEntrant(r, filter))).toBe(true);
        },
      ),
      fcParams(),
    );
  });

  it("refuses a course of another race and a category none of the races' entrants has", () => {
    const offered = { courses: new Set(["c5k", "c10k"]), categories: new Set(["U16", "Open"]) };
    expect(audienceFilterProblem({ courses: ["c5k"], categories: ["U16 "] }, offered)).toBeNull();
    expect(audienceFilterProblem({}, offered)).toBeNull();
    expect(audienceFilterProblem({ courses: ["elsewhere"] }, offered)).toBe("Choose courses of the chosen races");
    expect(audienceFilterProblem({ categories: ["M70"] }, offered)).toBe("Choose categories of the chosen races' entrants");
    expect(categoriesOf([{ category: "Open" }, { category: " U16" }, { category: null }, { category: "Open" }])).toEqual(["Open", "U16"]);
  });

  it("says who it reaches in words", () => {
    const names = {
      forms: new Map([["f1", "Spring camp"]]),
      races: new Map([
        ["r1", "Harbour 10K"],
        ["r2", "Harbour 5K"],
      ]),
      courses: new Map([["c5k", "5 km"]]),
    };
    expect(audienceSummary({ members: false, registrations: [] }, names)).toBe("Nobody yet");
    expect(audienceSummary({ members: true, registrations: ["f1"] }, names)).toBe("The club's current members; everyone registered on Spring camp");
    expect(
      audienceSummary({ members: false, registrations: [], races: ["r1", "r2"], courses: ["c5k"], categories: ["U16", "Open"], entrants: "finished" }, names),
    ).toBe("The entrants of Harbour 10K or Harbour 5K on 5 km in U16 or Open who finished");
  });
});
