import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import {
  CHIP_PLACE_LABELS,
  chipPlace,
  chipsAfterReplacement,
  FAILURES_TO_FAULTY,
  GOCHIP_MESSAGES,
  GOCHIP_STATUSES,
  normaliseHex,
  parseHexList,
  replacementProblem,
  slotsFor,
  testOutcome,
  type TestedChip,
} from "./chips";

describe("a hex code", () => {
  it("is read whatever its spacing, prefix and case, and refused when it is not hex", () => {
    expect(normaliseHex(" 0x00a1 b2:c3 ")).toBe("00A1B2C3");
    expect(normaliseHex("E200-3411")).toBe("E2003411");
    expect(normaliseHex("12G4")).toEqual({ error: GOCHIP_MESSAGES.hex });
    expect(normaliseHex("ABC")).toEqual({ error: GOCHIP_MESSAGES.hex });
    expect(normaliseHex("A".repeat(33))).toEqual({ error: GOCHIP_MESSAGES.hex });
  });
});

describe("an Activator's CSV", () => {
  it("takes the first column, skips the header, keeps each code once and names the lines that are not codes", () => {
    const csv = '\uFEFFHex Code,Time\r\n"00a1b2",12:00:01\r\n00A1B2,12:00:02\r\n\r\nbeef01;x\r\nnot a chip\r\n';
    expect(parseHexList(csv)).toEqual({ codes: ["00A1B2", "BEEF01"], badLines: [6] });
    expect(parseHexList("")).toEqual({ codes: [], badLines: [] });
  });
});

describe("a test over a rack", () => {
  const chip = (hexCode: string, status: TestedChip["status"] = "ok", failures = 0): TestedChip => ({ hexCode, status, failures });

  it("marks what answered good, counts a failure for the silent, and the second failure makes a chip faulty", () => {
    const result = testOutcome(
      [chip("AAAA", "untested"), chip("BBBB"), chip("CCCC", "ok", 1), chip("DDDD", "lost"), chip("EEEE", "lost")],
      ["AAAA", "EEEE", "FFFF"],
    );
    expect(result.chips).toEqual([chip("AAAA", "ok"), chip("BBBB", "ok", 1), chip("CCCC", "faulty", 2), chip("EEEE", "ok")]);
    expect(result.answered).toEqual(["AAAA", "EEEE"]);
    expect(result.silent).toEqual(["BBBB", "CCCC"]);
    expect(result.unknown).toEqual(["FFFF"]);
  });

  it("keeps a faulty chip faulty when it answers", () => {
    expect(testOutcome([chip("AAAA", "faulty", 2)], ["AAAA"]).chips).toEqual([chip("AAAA", "faulty", 2)]);
  });

  it("sorts every chip it tests into answered or silent, never lowers failures, and is faulty exactly from the second failure", () => {
    const chips = fc.uniqueArray(
      fc.record({ hexCode: fc.constantFrom("AAAA", "BBBB", "CCCC", "DDDD", "EEEE", "FFFF"), status: fc.constantFrom(...GOCHIP_STATUSES), failures: fc.nat(3) }),
      { selector: (c) => c.hexCode, maxLength: 6 },
    );
    const answered = fc.subarray(["AAAA", "BBBB", "CCCC", "DDDD", "EEEE", "FFFF", "0000"]);
    fc.assert(
      fc.property(chips, answered, (list, heard) => {
        // A chip with two failures is faulty already, as the rule keeps them.
        const stored = list.map((c) => (c.failures >= FAILURES_TO_FAULTY ? { ...c, status: "faulty" as const } : c));
        const result = testOutcome(stored, heard);
        for (const before of stored) {
          const after = result.chips.find((c) => c.hexCode === before.hexCode);
          const answeredIt = result.answered.includes(before.hexCode);
          const silentIt = result.silent.includes(before.hexCode);
          expect(answeredIt && silentIt).toBe(false);
          if (!after) {
            expect(before.status).toBe("lost");
            continue;
          }
          expect(answeredIt || silentIt).toBe(true);
          expect(after.failures).toBeGreaterThanOrEqual(before.failures);
          expect(after.status === "faulty").toBe(before.status === "faulty" || after.failures >= FAILURES_TO_FAULTY);
        }
        for (const code of result.unknown) expect(stored.some((c) => c.hexCode === code)).toBe(false);
      }),
      fcParams(),
    );
  });
});

describe("loading a rack", () => {
  it("fills the free slots from the one given, in order, and refuses when there is too little room", () => {
    expect(slotsFor(5, new Set([2]), 1, ["A1A1", "B2B2", "C3C3"])).toEqual(
      new Map([
        ["A1A1", 1],
        ["B2B2", 3],
        ["C3C3", 4],
      ]),
    );
    expect(slotsFor(5, new Set([4]), 3, ["A1A1", "B2B2", "C3C3"])).toEqual({ error: GOCHIP_MESSAGES.noRoom(2, 3) });
    expect(slotsFor(5, new Set(), 6, ["A1A1"])).toEqual({ error: GOCHIP_MESSAGES.slotRange(5) });
  });
});

describe("a replacement at a race", () => {
  it("refuses the racer's own chip and a chip the depot marked faulty or lost", () => {
    expect(replacementProblem("AAAA", "aaaa", null)).toBe(GOCHIP_MESSAGES.sameChip);
    expect(replacementProblem("AAAA", "BBBB", "faulty")).toBe(GOCHIP_MESSAGES.faulty);
    expect(replacementProblem("AAAA", "BBBB", "lost")).toBe(GOCHIP_MESSAGES.lost);
    expect(replacementProblem(null, "BBBB", "ok")).toBeNull();
  });

  it("gives the racer the new chip and keeps the old on their list, at most ten", () => {
    expect(chipsAfterReplacement({ chip: "AAAA", chip_list: ["9999"] }, "BBBB")).toEqual({ chip: "BBBB", chip_list: ["9999", "AAAA"] });
    expect(chipsAfterReplacement({ chip: null, chip_list: [] }, "BBBB")).toEqual({ chip: "BBBB", chip_list: [] });
    const full = Array.from({ length: 10 }, (_, i) => `C${i}C${i}`);
    expect(chipsAfterReplacement({ chip: "AAAA", chip_list: full }, "BBBB").chip_list).toEqual([...full.slice(1), "AAAA"]);
  });
});

describe("where a chip is in the depot's books", () => {
  const issued = { rackId: null, issuedAt: 1_700_000_000_000 };
  it("is its rack while in one, issued while its shipment is out, not returned once the shipment is back", () => {
    expect(chipPlace({ rackId: "r1", issuedAt: null }, null)).toBe("rack");
    expect(chipPlace(issued, "shipped")).toBe("issued");
    expect(chipPlace(issued, "draft")).toBe("issued");
    expect(chipPlace(issued, "returned")).toBe("not_returned");
    expect(chipPlace(issued, "closed")).toBe("not_returned");
    // The shipment deleted since: nothing will bring the chip back.
    expect(chipPlace(issued, null)).toBe("not_returned");
    expect(chipPlace({ rackId: null, issuedAt: null }, "returned")).toBe("loose");
    expect(CHIP_PLACE_LABELS.not_returned).toBe("Not returned");
  });

  it("puts a chip back in its rack whatever it was issued to", () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 0 })),
        fc.option(fc.constantFrom("draft", "packed", "shipped", "returned", "closed")),
        (issuedAt, state) => chipPlace({ rackId: "r1", issuedAt }, state) === "rack" && chipPlace({ rackId: null, issuedAt }, state) !== "rack",
      ),
      fcParams(),
    );
  });
});
