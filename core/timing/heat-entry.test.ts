import { describe, expect, it } from "vitest";
import { FINISH_ORDER_HELP, readHeatEntry } from "./heat-entry";

const S = 1_000_000;
const seated = [
  { racerId: "a", bib: 11 },
  { racerId: "b", bib: 12 },
  { racerId: "c", bib: 13 },
  { racerId: "d", bib: 14 },
];
const entry = (order: string, extra: { times?: Record<string, string>; statuses?: Record<string, string> } = {}) =>
  readHeatEntry(seated, { order, times: extra.times ?? {}, statuses: extra.statuses ?? {} });

describe("reading a heat's finish order", () => {
  it("maps bibs to racers in finish order; racers not listed did not finish", () => {
    expect(entry("13 11, 12")).toEqual({ ok: true, value: { finish_list: ["c", "a", "b"], times_dict: {}, status_dict: { d: "dnf" }, tie_list: [] } });
  });

  it("joins a photo-finish tie with =", () => {
    const reply = entry("12 11=14 13");
    expect(reply.ok && reply.value.finish_list).toEqual(["b", "a", "d", "c"]);
    expect(reply.ok && reply.value.tie_list).toEqual([["a", "d"]]);
  });

  it("keeps a status chosen for a non-finisher", () => {
    const reply = entry("11 12", { statuses: { c: "DSQ", d: "dns" } });
    expect(reply.ok && reply.value.status_dict).toEqual({ c: "dsq", d: "dns" });
  });

  it("refuses what is not a bib, a bib from another heat, and a bib twice", () => {
    expect(entry("11 x")).toEqual({ ok: false, errors: { order: `“x” is not a bib. ${FINISH_ORDER_HELP}` } });
    expect(entry("11 99")).toEqual({ ok: false, errors: { order: "Bib 99 is not in this heat" } });
    expect(entry("11 12 11")).toEqual({ ok: false, errors: { order: "Bib 11 is listed twice" } });
    expect(entry("11=11")).toEqual({ ok: false, errors: { order: "Bib 11 is listed twice" } });
    expect(entry("  ")).toEqual({ ok: false, errors: { order: FINISH_ORDER_HELP } });
  });

  it("refuses a status for a finisher", () => {
    expect(entry("11 12", { statuses: { a: "dnf" } })).toEqual({ ok: false, errors: { status_a: "Bib 11 is in the finish order; a finisher has no status" } });
    expect(entry("11", { statuses: { b: "late" } })).toEqual({ ok: false, errors: { status_b: "Choose DNF, DNS or DSQ" } });
  });

  it("reads heat times, which may not get faster down the finish order", () => {
    const reply = entry("11 12", { times: { a: "2:51.3", b: "2:51.9" } });
    expect(reply.ok && reply.value.times_dict).toEqual({ a: 171.3 * S, b: 171.9 * S });
    expect(entry("11 12", { times: { a: "2:52", b: "2:51.9" } })).toEqual({
      ok: false,
      errors: { time_b: "Bib 12 finished after Bib 11, so its time cannot be faster" },
    });
    expect(entry("11 12", { times: { c: "2:55" } })).toEqual({ ok: false, errors: { time_c: "Only finishers have a heat time" } });
    expect(entry("11", { times: { a: "2:75" } })).toEqual({ ok: false, errors: { time_a: "Minutes and seconds must be below 60" } });
  });
});
