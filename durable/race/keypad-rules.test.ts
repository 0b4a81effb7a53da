import { describe, expect, it } from "vitest";
import { racerFromStorage } from "../../schema/race/racer";
import { applyStatus, manualEntriesProblem, manualEntryTime, withMisses } from "./keypad-rules";

const racer = racerFromStorage(JSON.stringify({ first_name: "Ada", last_name: "Test", bib: 7 }));

describe("keypad rules shared by the race room and the serverbox", () => {
  it("sets one of DNS, DNF, DSQ and clears the others; OK clears all; per run with run", () => {
    const dnf = applyStatus(racer, "dnf", 5_000);
    expect([dnf.dns, dnf.dnf_time, dnf.dsq_time]).toEqual([false, 5_000, null]);
    const dsq = applyStatus(dnf, "dsq", 6_000);
    expect([dsq.dns, dsq.dnf_time, dsq.dsq_time]).toEqual([false, null, 6_000]);
    const ok = applyStatus(dsq, "ok", 7_000);
    expect([ok.dns, ok.dnf_time, ok.dsq_time]).toEqual([false, null, null]);
    const run2 = applyStatus(racer, "dns", 1, 2);
    expect(run2.run_statuses).toEqual([null, { is_dns: true, dnf_time: null, dsq_time: null }]);
    expect(applyStatus(run2, "ok", 2, 2).run_statuses).toEqual([null, null]);
  });

  it("writes one shooting's misses, leaving earlier shootings unknown, and a later entry replaces", () => {
    const third = withMisses(racer, 3, 2);
    expect(third.biathlon_misses).toEqual([null, null, 2]);
    expect(withMisses(third, 3, 0).biathlon_misses).toEqual([null, null, 0]);
    expect(withMisses(third, 1, 1).biathlon_misses).toEqual([1, null, 2]);
  });

  it("refuses a batch naming a point the race lacks or a time of day that is none, and times a time of day on the race's day", () => {
    const hasPoint = (id: string) => id === "finish";
    expect(manualEntriesProblem([{ kind: "time", key: "k-000001", bib: 1, point: "finish", time: 1 }], hasPoint)).toBeNull();
    expect(manualEntriesProblem([{ kind: "time", key: "k-000001", bib: 1, point: "hill", time: 1 }], hasPoint)).toBe("No such timing point: hill");
    expect(
      manualEntriesProblem(
        [
          { kind: "status", key: "k-000001", bib: 1, status: "dnf" },
          { kind: "time", key: "k-000002", bib: 1, point: "finish", tod: "24:61:00" },
        ],
        hasPoint,
      ),
    ).toMatch(/^entries\[1\]\.tod: /);
    expect(manualEntryTime({ tod: "00:01:30" }, 1_000_000_000)).toBe(1_000_000_000 + 90_000_000);
    expect(manualEntryTime({ time: 42 }, 1_000_000_000)).toBe(42);
  });
});
