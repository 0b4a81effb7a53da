import { describe, expect, it } from "vitest";
import { chipWriteParts, chipWritesSchema, CHIP_WRITES_PART, type ChipWrites } from "./chip-writes";

const chip = (n: number) => ({
  id: crypto.randomUUID(),
  depotId: crypto.randomUUID(),
  hexCode: n.toString(16).toUpperCase().padStart(6, "0"),
  status: "ok" as const,
  rackId: crypto.randomUUID(),
  shipmentId: crypto.randomUUID(),
  issuedRacerId: null,
});

describe("chipWriteParts", () => {
  it("splits a large import into queue messages of at most 200 chips and 128 KB, losing and repeating none", () => {
    const issue = Array.from({ length: 5_000 }, (_, n) => ({ chip: chip(n), racer: { id: crypto.randomUUID(), bib: n + 1 } }));
    const writes: ChipWrites = { raceId: crypto.randomUUID(), at: 1_700_000_000_000, issue, giveBack: [], follow: [{ id: "r", bib: 7 }] };
    const parts = chipWriteParts(writes);
    expect(parts).toHaveLength(25);
    for (const part of parts) {
      expect(part.issue.length).toBeLessThanOrEqual(CHIP_WRITES_PART);
      expect(new TextEncoder().encode(JSON.stringify({ kind: "chip-writes", ...part })).length).toBeLessThan(128 * 1024);
      // Each part is a job the queue's consumer accepts as it is.
      expect(chipWritesSchema.safeParse(part).success).toBe(true);
      expect(part).toMatchObject({ raceId: writes.raceId, at: writes.at });
    }
    expect(parts.flatMap((p) => p.issue)).toEqual(issue);
    expect(parts.flatMap((p) => p.follow)).toEqual(writes.follow);
  });

  it("makes no part of nothing", () => {
    expect(chipWriteParts({ raceId: "r", at: 0, issue: [], giveBack: [], follow: [] })).toEqual([]);
  });
});
