import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { GOCHIP_MESSAGES, GOCHIP_STATUSES } from "./chips";
import { chipBookOf, chipHandout, depotChipOf, oneChip, type RaceChip } from "./handouts";

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

/** The racer form's Chip alone: the old shape of the rule's answer, so the single-chip cases read as before. */
function single(racerId: string | null, before: string | null, after: string | null, known = book) {
  const h = chipHandout(racerId, oneChip(before), oneChip(after), known);
  return h.ok ? { ok: true, chip: h.chips.chip, issue: h.issue[0] ?? null, giveBack: h.giveBack[0] ?? null } : { ok: false, problem: h.problem };
}

describe("a racer's chip set at bib pickup", () => {
  it("issues a depot chip from its rack, as the depot writes its code", () => {
    expect(single(null, null, "0000a1", book)).toEqual({ ok: true, chip: "0000A1", issue: book.get("0000A1"), giveBack: null });
    expect(single("r9", "C7", "00:00:a2", book)).toEqual({ ok: true, chip: "0000A2", issue: book.get("0000A2"), giveBack: null });
  });

  it("refuses a chip the depot marked faulty or lost in the replacement's words", () => {
    expect(single(null, null, "0000A3", book)).toEqual({ ok: false, problem: GOCHIP_MESSAGES.faulty });
    expect(single("r1", "0000B1", "0000a4", book)).toEqual({ ok: false, problem: GOCHIP_MESSAGES.lost });
  });

  it("takes a chip no depot shipped as text, and gives back the depot chip issued to the racer", () => {
    expect(single(null, null, "club-7", book)).toEqual({ ok: true, chip: "club-7", issue: null, giveBack: null });
    expect(single("r1", "0000B1", "club-7", book)).toEqual({ ok: true, chip: "club-7", issue: null, giveBack: book.get("0000B1") });
    expect(single("r1", "0000B1", "0000A2", book)).toEqual({ ok: true, chip: "0000A2", issue: book.get("0000A2"), giveBack: book.get("0000B1") });
    expect(single("r1", "0000B1", null, book)).toEqual({ ok: true, chip: null, issue: null, giveBack: book.get("0000B1") });
    // A chip issued to another racer is not this racer's to give back.
    expect(single("r1", "0000B2", null, book)).toEqual({ ok: true, chip: null, issue: null, giveBack: null });
  });

  it("does nothing when the chip is the same, however it is written, even one marked faulty since", () => {
    expect(single("r1", "0000B1", "0000b1", book)).toEqual({ ok: true, chip: "0000B1", issue: null, giveBack: null });
    expect(single("r1", "0000A3", "0000A3", book)).toEqual({ ok: true, chip: "0000A3", issue: null, giveBack: null });
    expect(single("r1", null, null, book)).toEqual({ ok: true, chip: null, issue: null, giveBack: null });
  });

  it("names a depot chip only by a valid hex code", () => {
    expect(depotChipOf(book, "0x0000a1")).toBe(book.get("0000A1"));
    expect(depotChipOf(book, "not hex")).toBeNull();
    expect(depotChipOf(book, "")).toBeNull();
  });

  it("hands out More chips by the same rule: issued, refused by the chip's code, given back when dropped", () => {
    const list = (chip: string | null, chips: string[]) => ({ chip, chip_list: chips });
    expect(chipHandout("r1", list("0000B1", []), list("0000B1", ["0000a2", "club-1"]), book)).toEqual({
      ok: true,
      chips: { chip: "0000B1", chip_list: ["0000A2", "club-1"] },
      issue: [book.get("0000A2")],
      giveBack: [],
    });
    expect(chipHandout("r1", list(null, []), list(null, ["0000A2", "0000a3"]), book)).toEqual({
      ok: false,
      field: "chip_list",
      problem: `0000A3: ${GOCHIP_MESSAGES.faulty}`,
    });
    expect(chipHandout("r1", list("0000A2", ["0000B1"]), list("0000A2", []), book)).toEqual({
      ok: true,
      chips: { chip: "0000A2", chip_list: [] },
      issue: [],
      giveBack: [book.get("0000B1")],
    });
    // A replacement moves the old chip to the list: a chip that only moved is unchanged.
    expect(chipHandout("r1", list("0000B1", []), list("0000A2", ["0000B1"]), book)).toEqual({
      ok: true,
      chips: { chip: "0000A2", chip_list: ["0000B1"] },
      issue: [book.get("0000A2")],
      giveBack: [],
    });
  });

  it("never issues nor gives back what the depots do not know, and never issues a faulty or lost chip", () => {
    const code = fc.constantFrom("0000A1", "0000A2", "0000B1", "club-1", "club-2");
    const chips = fc.uniqueArray(
      fc.record({
        hexCode: fc.constantFrom("0000A1", "0000A2", "0000B1"),
        status: fc.constantFrom(...GOCHIP_STATUSES),
        inRack: fc.boolean(),
        issuedRacerId: fc.constantFrom(null, "r1", "r2"),
      }),
      { selector: (c) => c.hexCode },
    );
    const racerChips = fc.record({ chip: fc.option(code, { nil: null }), chip_list: fc.uniqueArray(code, { maxLength: 3 }) });
    fc.assert(
      fc.property(chips, fc.constantFrom(null, "r1", "r2"), racerChips, racerChips, (list, racerId, before, after) => {
        const known = chipBookOf(
          list.map((c) => ({ ...inRack(c.hexCode, c.status), ...(c.inRack ? {} : { rackId: null, shipmentId: null }), issuedRacerId: c.issuedRacerId })),
        );
        const handout = chipHandout(racerId, before, after, known);
        const beforeCodes = new Set<string | null>([before.chip, ...before.chip_list]);
        const afterCodes = new Set<string | null>([after.chip, ...after.chip_list]);
        if (!handout.ok) expect(handout.problem).toMatch(/marked (faulty|lost): take another$/);
        else {
          for (const chip of handout.issue) {
            expect([known.get(chip.hexCode), afterCodes.has(chip.hexCode), beforeCodes.has(chip.hexCode), ["ok", "untested"].includes(chip.status)]).toEqual([
              chip,
              true,
              false,
              true,
            ]);
          }
          for (const chip of handout.giveBack)
            expect([chip.issuedRacerId, afterCodes.has(chip.hexCode), beforeCodes.has(chip.hexCode)]).toEqual([racerId, false, true]);
        }
        // The same chips again, in any order or place, do nothing.
        const again = chipHandout(racerId, before, { chip: after.chip, chip_list: after.chip_list }, known);
        if ([...afterCodes].every((c) => beforeCodes.has(c)) && [...beforeCodes].every((c) => afterCodes.has(c)))
          expect(again).toEqual({ ok: true, chips: { chip: after.chip, chip_list: after.chip_list }, issue: [], giveBack: [] });
      }),
      fcParams(),
    );
  });
});
