import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { GOCHIP_MESSAGES, GOCHIP_STATUSES } from "./chips";
import { chipBookOf, chipHandout, depotChipOf, type RaceChip } from "./handouts";

const inRack = (hexCode: string, status: RaceChip["status"] = "ok"): RaceChip => ({
  id: `id-${hexCode}`,
  depotId: "depot",
  hexCode,
  status,
  rackId: "rack",
  shipmentId: "shipment",
  issuedRacerId: null,
});
const issuedTo = (hexCode: string, racerId: string): RaceChip => ({ ...inRack(hexCode), rackId: null, shipmentId: null, issuedRacerId: racerId });

const book = chipBookOf([
  inRack("0000A1"),
  inRack("0000A2"),
  inRack("0000A3", "faulty"),
  inRack("0000A4", "lost"),
  issuedTo("0000B1", "r1"),
  issuedTo("0000B2", "r2"),
]);

describe("a racer's chip set at bib pickup", () => {
  it("issues a depot chip from its rack, as the depot writes its code", () => {
    expect(chipHandout(null, null, "0000a1", book)).toEqual({ ok: true, chip: "0000A1", issue: book.get("0000A1"), giveBack: null });
    expect(chipHandout("r9", "C7", "00:00:a2", book)).toEqual({ ok: true, chip: "0000A2", issue: book.get("0000A2"), giveBack: null });
  });

  it("refuses a chip the depot marked faulty or lost in the replacement's words", () => {
    expect(chipHandout(null, null, "0000A3", book)).toEqual({ ok: false, problem: GOCHIP_MESSAGES.faulty });
    expect(chipHandout("r1", "0000B1", "0000a4", book)).toEqual({ ok: false, problem: GOCHIP_MESSAGES.lost });
  });

  it("takes a chip no depot shipped as text, and gives back the depot chip issued to the racer", () => {
    expect(chipHandout(null, null, "club-7", book)).toEqual({ ok: true, chip: "club-7", issue: null, giveBack: null });
    expect(chipHandout("r1", "0000B1", "club-7", book)).toEqual({ ok: true, chip: "club-7", issue: null, giveBack: book.get("0000B1") });
    expect(chipHandout("r1", "0000B1", "0000A2", book)).toEqual({ ok: true, chip: "0000A2", issue: book.get("0000A2"), giveBack: book.get("0000B1") });
    expect(chipHandout("r1", "0000B1", null, book)).toEqual({ ok: true, chip: null, issue: null, giveBack: book.get("0000B1") });
    // A chip issued to another racer is not this racer's to give back.
    expect(chipHandout("r1", "0000B2", null, book)).toEqual({ ok: true, chip: null, issue: null, giveBack: null });
  });

  it("does nothing when the chip is the same, however it is written, even one marked faulty since", () => {
    expect(chipHandout("r1", "0000B1", "0000b1", book)).toEqual({ ok: true, chip: "0000B1", issue: null, giveBack: null });
    expect(chipHandout("r1", "0000A3", "0000A3", book)).toEqual({ ok: true, chip: "0000A3", issue: null, giveBack: null });
    expect(chipHandout("r1", null, null, book)).toEqual({ ok: true, chip: null, issue: null, giveBack: null });
  });

  it("names a depot chip only by a valid hex code", () => {
    expect(depotChipOf(book, "0x0000a1")).toBe(book.get("0000A1"));
    expect(depotChipOf(book, "not hex")).toBeNull();
    expect(depotChipOf(book, "")).toBeNull();
  });

  it("never issues nor gives back what the depots do not know, and never issues a faulty or lost chip", () => {
    const code = fc.constantFrom("0000A1", "0000A2", "0000B1", "club-1", "club-2", null);
    const chips = fc.uniqueArray(
      fc.record({
        hexCode: fc.constantFrom("0000A1", "0000A2", "0000B1"),
        status: fc.constantFrom(...GOCHIP_STATUSES),
        inRack: fc.boolean(),
        issuedRacerId: fc.constantFrom(null, "r1", "r2"),
      }),
      { selector: (c) => c.hexCode },
    );
    fc.assert(
      fc.property(chips, fc.constantFrom(null, "r1", "r2"), code, code, (list, racerId, before, after) => {
        const known = chipBookOf(
          list.map((c) => ({ ...inRack(c.hexCode, c.status), ...(c.inRack ? {} : { rackId: null, shipmentId: null }), issuedRacerId: c.issuedRacerId })),
        );
        const handout = chipHandout(racerId, before, after, known);
        if (!handout.ok) expect([GOCHIP_MESSAGES.faulty, GOCHIP_MESSAGES.lost]).toContain(handout.problem);
        else {
          if (handout.issue) expect([known.get(after ?? ""), ["ok", "untested"].includes(handout.issue.status)]).toEqual([handout.issue, true]);
          if (handout.giveBack) expect([handout.giveBack, handout.giveBack.issuedRacerId]).toEqual([known.get(before ?? ""), racerId]);
        }
        if (before === after) expect(handout).toEqual({ ok: true, chip: after, issue: null, giveBack: null });
      }),
      fcParams(),
    );
  });
});
